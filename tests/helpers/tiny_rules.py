"""The small stops variant the builder's tests edit one line at a time (test_build.py,
test_problems.py): Michigan's rules cut down to two boodles and a kitty, every exit stated,
so that each edit breaks exactly the check it aims at."""

BASE = """\
variant tiny {
  players 3 to 8
  deck { ranks 2 3 4 5 6 7 8 9 10 J Q K A }
  board {
    boodle A♥
    boodle K♣
    kitty "Kitty"
  }
  ante {
    each player 1 on each boodle
    each player 2 on kitty
  }
  deal { widow: last in each round, hidden }
  phase play is stops {
    first lead: left of dealer, lowest of chosen suit
    follow: owner of next card
    stop: top rank, next card held by nobody
    restart: last player, lowest of other suit
    if none: lead lowest of same suit
    going out: ends deal, takes kitty, 1 per card to winner
  }
  session { start: 50 chips }
}
"""
