#!/usr/bin/env node
// Independent Michigan (home profile) implementation speaking boodle-protocol/1.
// Written from conformance/PROTOCOL.md, FORMAT.md, spec/rules.md and spec/michigan.md only,
// without reading the reference's Python, to check that those documents are enough. It plays
// the variant michigan only (rules version 1): script, reject and count cases, positions and
// legal moves; no session cases. Run:  boodle conformance run --impl "node adapter.js" --variant michigan
'use strict';

const SUITS = ['♣', '♦', '♥', '♠'];
const SUIT_LETTERS = { C: 0, D: 1, H: 2, S: 3, '♣': 0, '♦': 1, '♥': 2, '♠': 3 };
const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];
const TOP = RANKS.length - 1;
const NCARDS = 52;
const WIDOW = -1, PLAYED = -2;
// board order (spec/variants/michigan.boodle)
const BOARD = ['A♥', 'K♣', 'Q♦', 'J♠', 'kitty'];
const BOODLES = ['A♥', 'K♣', 'Q♦', 'J♠'];

const suitOf = (c) => Math.floor(c / 13);
const rankOf = (c) => c % 13;
const cardName = (c) => RANKS[rankOf(c)] + SUITS[suitOf(c)];

// parse one card at position i of string s; returns [card, nextIndex]
function parseCardAt(s, i) {
  let r;
  if (s.startsWith('10', i)) { r = 8; i += 2; }
  else {
    const ch = s[i];
    if (ch === 'T') r = 8;
    else { r = RANKS.indexOf(ch); if (r < 0) throw new Error(`bad rank at ${i} in ${s}`); }
    i += 1;
  }
  const su = SUIT_LETTERS[s[i]];
  if (su === undefined) throw new Error(`bad suit at ${i} in ${s}`);
  return [su * 13 + r, i + 1];
}
function parseCard(s) {
  const [c, j] = parseCardAt(s, 0);
  if (j !== s.length) throw new Error(`bad card ${s}`);
  return c;
}
function parseCards(s) {
  if (s === '-') return [];
  const out = []; let i = 0;
  while (i < s.length) { const [c, j] = parseCardAt(s, i); out.push(c); i = j; }
  return out;
}
const BOODLE_CARD = new Map(BOODLES.map((n) => [parseCard(n), n]));

// ---------------------------------------------------------------- chips
// Michigan is `chips whole`; still accept "a/b" in input by keeping integers only.
function parseAmount(a) {
  if (typeof a === 'number') return a;
  throw new Error(`fractional amount ${a} not supported (chips whole)`);
}

// ---------------------------------------------------------------- state
class State {
  constructor() {
    this.n = 0; this.dealer = 0;
    this.owner = new Array(NCARDS).fill(WIDOW);
    this.count = [];           // cards in hand per seat
    this.seats = [];           // balances
    this.sections = {};        // name -> amount
    this.run = null;           // last card of the run going on, or null when a lead is due
    this.stopped = null;       // stopped suit (null at the first lead)
    this.toMove = null;        // seat to move, null when over
    this.over = false;
    this.winner = null;
    this.events = null;        // array to record events, or null
    this.playedAny = false;
  }
  clone() {
    const s = new State();
    s.n = this.n; s.dealer = this.dealer; s.owner = this.owner.slice(); s.count = this.count.slice();
    s.seats = this.seats.slice(); s.sections = Object.assign({}, this.sections);
    s.run = this.run; s.stopped = this.stopped; s.toMove = this.toMove; s.over = this.over;
    s.winner = this.winner; s.events = null; s.playedAny = this.playedAny;
    return s;
  }
  emit(e) { if (this.events) this.events.push(e); }
  ledger() {
    const sec = {};
    for (const name of BOARD) sec[name] = this.sections[name];
    return { seats: this.seats.slice(), sections: sec };
  }
  ledgerKey() { return this.seats.join(',') + '|' + BOARD.map((b) => this.sections[b]).join(','); }
  lowestOf(seat, suit) {
    for (let r = 0; r < 13; r++) if (this.owner[suit * 13 + r] === seat) return suit * 13 + r;
    return -1;
  }
  legalMoves() {
    if (this.over) return [];
    if (this.run !== null) {
      const nx = this.run + 1;
      return [{ move: 'play', seat: this.toMove, card: nx }];
    }
    const seat = this.toMove;
    const lows = [];
    for (let su = 0; su < 4; su++) { const c = this.lowestOf(seat, su); if (c >= 0) lows.push(c); }
    let allowed = lows;
    if (this.stopped !== null) {
      // restart: last player, lowest of other suit; if none: lead lowest of same suit
      const other = lows.filter((c) => suitOf(c) !== this.stopped);
      allowed = other.length ? other : lows.filter((c) => suitOf(c) === this.stopped);
    }
    return allowed.map((c) => ({ move: 'lead', seat, card: c }));
  }
  // returns rule id or null (spec/rules.md §12 order)
  check(m) {
    if (this.over) return 'deal.over';
    if (m.seat !== this.toMove) return 'turn';
    if (m.move === 'pass') return 'pass.not-allowed';
    if (this.run !== null) {
      if (m.move === 'play' || m.move === 'lead') {
        if (m.move !== 'play' || m.card !== this.run + 1) return 'follow.next-card';
        return null;
      }
      return 'move.kind';
    }
    if (m.move !== 'lead') return 'move.kind';
    const c = m.card;
    if (this.owner[c] !== m.seat) return 'lead.not-held';
    if (this.stopped !== null && suitOf(c) === this.stopped) {
      for (let su = 0; su < 4; su++) if (su !== this.stopped && this.lowestOf(m.seat, su) >= 0) return 'lead.suit';
    }
    if (this.lowestOf(m.seat, suitOf(c)) !== c) return 'lead.lowest';
    return null;
  }
  transfer(fromSeat, toSeat, fromSection, toSection, amount) {
    if (fromSeat !== null) this.seats[fromSeat] -= amount;
    if (fromSection !== null) this.sections[fromSection] -= amount;
    if (toSeat !== null) this.seats[toSeat] += amount;
    if (toSection !== null) this.sections[toSection] += amount;
  }
  claim(seat, name) {
    const amt = this.sections[name];
    this.emit({ kind: 'claim', seat, section: name, amount: amt });
    this.transfer(null, seat, name, null, amt);
  }
  apply(m) { // m is legal, card as index
    const seat = m.seat, c = m.card;
    if (m.move === 'lead') this.emit({ kind: 'lead', seat, card: cardName(c), restart: this.playedAny });
    else this.emit({ kind: 'play', seat, card: cardName(c) });
    this.owner[c] = PLAYED; this.count[seat]--; this.playedAny = true;
    const b = BOODLE_CARD.get(c);
    if (b !== undefined) this.claim(seat, b);
    if (this.count[seat] === 0) { this.goOut(seat); return; }
    let reason = null, next = null;
    if (rankOf(c) === TOP) reason = 'top rank';
    else {
      next = c + 1;
      const o = this.owner[next];
      if (o >= 0) { this.run = c; this.toMove = o; return; }
      reason = o === WIDOW ? 'widow' : 'played';
    }
    this.emit({ kind: 'stop', seat, card: cardName(c), reason, next_card: next === null ? null : cardName(next) });
    this.run = null; this.stopped = suitOf(c); this.toMove = seat;
  }
  goOut(w) {
    this.emit({ kind: 'go-out', seat: w });
    this.claim(w, 'kitty');
    for (let k = 1; k < this.n; k++) {
      const p = (w + k) % this.n;
      const left = this.count[p];
      this.emit({ kind: 'payment', payer: p, payee: { seat: w }, amount: left, cards_left: left, excused: false });
      this.transfer(p, w, null, null, left);
    }
    for (const name of BOARD) {
      if (this.sections[name] !== 0) this.emit({ kind: 'carry-over', section: name, amount: this.sections[name] });
    }
    this.over = true; this.winner = w; this.toMove = null; this.run = null;
    this.emit({ kind: 'deal-end', winner: w, reason: 'went out', ledger: this.ledger() });
  }
}

// ---------------------------------------------------------------- setups
function letterSeat(ch) { const s = ch.charCodeAt(0) - 65; if (s < 0 || s > 19) throw new Error(`bad seat letter ${ch}`); return s; }

function fromPosition(text) {
  const f = text.trim().split(' ');
  if (f.length !== 9) throw new Error(`position needs 9 fields, got ${f.length}`);
  const st = new State();
  st.n = parseInt(f[0], 10);
  st.dealer = letterSeat(f[1]);
  const hands = f[2].split('/');
  if (hands.length !== st.n) throw new Error('one hand per seat');
  const placed = new Array(NCARDS).fill(false);
  st.owner.fill(WIDOW);
  st.count = new Array(st.n).fill(0);
  hands.forEach((h, seat) => { for (const c of parseCards(h)) { st.owner[c] = seat; st.count[seat]++; placed[c] = true; } });
  // widow: '*' = everything else; '-' none; else list (all others would be nowhere: treat as widow anyway)
  // played
  let lastSeat = null, lastCard = null;
  if (f[4] !== '-') {
    let i = 0; const s = f[4];
    while (i < s.length) {
      const seat = letterSeat(s[i]);
      const [c, j] = parseCardAt(s, i + 1);
      st.owner[c] = PLAYED; placed[c] = true; lastSeat = seat; lastCard = c; i = j;
    }
    st.playedAny = true;
  }
  if (f[5] !== '-') {
    const run = parseCards(f[5]);
    st.run = run[run.length - 1];
  }
  if (f[6] === '-') { st.over = true; st.toMove = null; st.run = null; }
  else {
    st.toMove = letterSeat(f[6][0]);
    if (st.run === null && lastCard !== null) st.stopped = suitOf(lastCard);
  }
  st.seats = f[7].split(',').map((x) => parseAmount(x.includes('/') ? x : parseInt(x, 10)));
  st.sections = {};
  for (const b of BOARD) st.sections[b] = 0;
  if (f[8] !== '-') for (const kv of f[8].split(',')) {
    const [k, v] = kv.split('=');
    let name = k;
    if (k !== 'kitty') name = cardName(parseCard(k));
    st.sections[name] = parseInt(v, 10);
  }
  return st;
}

function fromDeal(setup, events) {
  const st = new State();
  st.events = events;
  const n = setup.players, d = setup.dealer;
  st.n = n; st.dealer = d;
  st.seats = setup.ledger.seats.map(parseAmount);
  st.sections = {};
  for (const b of BOARD) st.sections[b] = parseAmount(setup.ledger.sections[b] || 0);
  st.emit({ kind: 'deal-start', number: null, dealer: d, players: n });
  const payers = []; for (let k = 1; k <= n; k++) payers.push((d + k) % n);
  for (const p of payers) for (const b of BOODLES) {
    st.emit({ kind: 'ante', from: { seat: p }, to: { section: b }, amount: 1, reason: 'ante' });
    st.transfer(p, null, null, b, 1);
  }
  for (const p of payers) {
    st.emit({ kind: 'ante', from: { seat: p }, to: { section: 'kitty' }, amount: 2, reason: 'ante' });
    st.transfer(p, null, null, 'kitty', 2);
  }
  const order = payers.slice(); order.push('widow');
  const hands = []; for (let i = 0; i < n; i++) hands.push([]);
  let widow = [];
  if (setup.deal.deck) {
    const deck = setup.deal.deck.map(parseCard);
    deck.forEach((c, i) => { const who = order[i % order.length]; if (who === 'widow') widow.push(c); else hands[who].push(c); });
  } else {
    setup.deal.hands.forEach((h, seat) => { for (const c of h) hands[seat].push(parseCard(c)); });
    widow = setup.deal.widow.map(parseCard);
  }
  st.owner.fill(WIDOW); st.count = new Array(n).fill(0);
  hands.forEach((h, seat) => { for (const c of h) { st.owner[c] = seat; st.count[seat]++; } });
  st.emit({ kind: 'deal', dealer: d, hands: hands.map((h) => h.map(cardName)), widow: widow.map(cardName), order });
  st.toMove = (d + 1) % n; st.run = null; st.stopped = null;
  return st;
}

function makeState(setup, events) {
  if (setup.position !== undefined) { const s = fromPosition(setup.position); s.events = events; return s; }
  return fromDeal(setup, events);
}

// ---------------------------------------------------------------- moves
function moveIn(m) {
  const r = { move: m.move, seat: m.seat };
  if (m.card !== undefined) r.card = parseCard(m.card);
  return r;
}
function moveOut(m) {
  const r = { move: m.move, seat: m.seat };
  if (m.card !== undefined) r.card = cardName(m.card);
  return r;
}

function finalOf(st, unused) {
  return { ledger: st.ledger(), over: st.over, to_move: st.over ? null : st.toMove, unused };
}

// ---------------------------------------------------------------- kinds
function runScript(msg) {
  const events = [];
  const st = makeState(msg.setup, events);
  const script = (msg.script || []).map(moveIn);
  const want = new Set(msg.legal_at || []);
  const legal = {};
  let point = 0, next = 0;
  for (;;) {
    const moves = st.legalMoves();
    if (want.has(point)) legal[String(point)] = moves.map(moveOut);
    if (st.over) break;
    let m;
    if (moves.length === 1) m = moves[0];
    else {
      if (next >= script.length) break;
      m = script[next++];
      const rule = st.check(m);
      if (rule) {
        const r = { type: 'result', id: msg.id, status: 'rejected', rule, at: point, events };
        return r;
      }
    }
    st.apply(m);
    point++;
  }
  const r = { type: 'result', id: msg.id, status: 'done', events, final: finalOf(st, script.length - next) };
  if (msg.legal_at) r.legal = legal;
  return r;
}

function runReject(msg) {
  const events = [];
  const st = makeState(msg.setup, events);
  const before = events.length;
  const m = moveIn(msg.move);
  const rule = st.check(m);
  if (rule) return { type: 'result', id: msg.id, status: 'rejected', rule, at: 0, events: [] };
  st.apply(m);
  return { type: 'result', id: msg.id, status: 'accepted', events: events.slice(before) };
}

function countFrom(st) {
  if (st.over) return { seq: 1, ledgers: new Set([st.ledgerKey()]) };
  let seq = 0; const ledgers = new Set();
  for (const m of st.legalMoves()) {
    const s2 = st.clone(); s2.apply(m);
    const r = countFrom(s2);
    seq += r.seq; for (const k of r.ledgers) ledgers.add(k);
  }
  return { seq, ledgers };
}

function runCount(msg) {
  const st = makeState(msg.setup, null);
  st.events = null;
  const by = [];
  let seq = 0; const all = new Set();
  if (st.over) { seq = 1; all.add(st.ledgerKey()); }
  for (const m of st.legalMoves()) {
    const s2 = st.clone(); s2.apply(m);
    const r = countFrom(s2);
    by.push({ move: moveOut(m), sequences: r.seq, ledgers: r.ledgers.size });
    seq += r.seq; for (const k of r.ledgers) all.add(k);
  }
  return { type: 'result', id: msg.id, status: 'counted', count: { sequences: seq, ledgers: all.size, by_first_move: by } };
}

function handleRun(msg) {
  if (!msg.variant || msg.variant.name !== 'michigan' || msg.variant.version !== 1) {
    return { type: 'result', id: msg.id, status: 'skipped', reason: `variant ${msg.variant && msg.variant.name} not played` };
  }
  try {
    if (msg.kind === 'script') return runScript(msg);
    if (msg.kind === 'reject') return runReject(msg);
    if (msg.kind === 'count') return runCount(msg);
    return { type: 'result', id: msg.id, status: 'skipped', reason: `kind ${msg.kind}` };
  } catch (e) {
    return { type: 'result', id: msg.id, status: 'error', message: String(e && e.stack || e) };
  }
}

const STARTED = {
  type: 'started', protocol: 'boodle-protocol/1',
  implementation: { name: 'node-michigan', version: '0.0.1', language: 'JavaScript' },
  variants: [{ name: 'michigan', version: 1 }],
  features: process.env.FEATURES !== undefined ? process.env.FEATURES.split(',').filter(Boolean) : ['position', 'count', 'legal'],
};

function send(obj) { process.stdout.write(JSON.stringify(obj) + '\n'); }

// ---------------------------------------------------------------- main
const oneShot = process.argv.includes('--one-shot');
let buf = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buf += chunk;
  let nl;
  while ((nl = buf.indexOf('\n')) >= 0) {
    const line = buf.slice(0, nl); buf = buf.slice(nl + 1);
    if (line.trim()) handleLine(line);
  }
});
process.stdin.on('end', () => {
  if (buf.trim()) handleLine(buf);
  process.exit(0);
});
function handleLine(line) {
  let msg;
  try { msg = JSON.parse(line); } catch (e) { process.stderr.write(`bad json: ${e}\n`); return; }
  if (msg.type === 'start') send(STARTED);
  else if (msg.type === 'run') {
    const r = handleRun(msg);
    send(r);
    if (oneShot) process.exit(r.status === 'rejected' ? 1 : (r.status === 'error' ? 2 : 0));
  } else if (msg.type === 'stop') process.exit(0);
}
