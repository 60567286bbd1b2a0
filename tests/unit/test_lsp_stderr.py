"""``boodle lsp`` given what is not an LSP message: one line on stderr, no traceback.

Tried as a new user would break it: a body that is not JSON (``{"a":``) made pygls log
"Unable to handle message" with a 12-line traceback (issue 21: no traceback on any input).
"""

from __future__ import annotations

import subprocess
import sys


def test_a_message_that_is_not_json_is_one_line_on_stderr() -> None:
    code = "import sys; from boodle.cli import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run([sys.executable, "-c", code, "lsp"],
                          input=b'Content-Length: 5\r\n\r\n{"a":', capture_output=True,
                          timeout=120)
    err = done.stderr.decode()
    assert done.returncode == 0  # the editor closed the pipe: the server stops
    assert "Traceback" not in err
    assert err.splitlines() == [
        "boodle lsp: error: Unable to handle message (JSONDecodeError: Expecting value: "
        "line 1 column 6 (char 5))"]
    assert b'"method": "window/showMessage"' in done.stdout  # the editor is told, as before
