"""The README's lines for VS Code, Neovim and Helix (section "Rules files in the editor")
name what the code has: the ``boodle lsp`` command, the extension's settings and its
packaging script, the comment mark of the language configuration; the Helix lines are TOML
that Helix reads as tables (language-server.boodle, one [[language]]) and that stay valid
added to a languages.toml with [[language]] sections of its own."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from boodle.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _blocks(language: str) -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Rules files in the editor", 1)[1].split("\n## ", 1)[0]
    return re.findall(rf"```{language}\n(.*?)```", section, re.DOTALL)


def test_boodle_lsp_is_a_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["lsp", "--help"])
    assert exc.value.code == 0
    assert "usage: boodle lsp" in capsys.readouterr().out


def test_the_vs_code_lines() -> None:
    (shell,) = _blocks("sh")
    package = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text("utf-8"))
    assert "npx vsce package --out boodle.vsix" in shell
    assert "@vscode/vsce" in package["devDependencies"]  # what npx vsce runs after npm ci
    assert "code --install-extension boodle.vsix" in shell
    settings = package["contributes"]["configuration"]["properties"]
    assert "boodle.server.command" in shell
    assert settings["boodle.server.command"]["default"] == ["boodle", "lsp"]
    # the settings the client passes as the initialization options the server reads
    client = (ROOT / "editors" / "vscode" / "extension.js").read_text(encoding="utf-8")
    for option in ("verifyOnSave", "verifyTimeout"):
        assert f"boodle.{option}" in settings
        assert f'{option}: settings.get("{option}"' in client


def test_the_neovim_lines() -> None:
    (lua,) = _blocks("lua")
    assert 'vim.filetype.add({ extension = { boodle = "boodle" } })' in lua
    assert 'cmd = { "boodle", "lsp" }' in lua and 'filetypes = { "boodle" }' in lua
    assert 'vim.lsp.enable("boodle")' in lua


def test_the_helix_lines() -> None:
    (toml,) = _blocks("toml")
    config = tomllib.loads(toml)
    assert config["language-server"]["boodle"] == {"command": "boodle", "args": ["lsp"]}
    (language,) = config["language"]
    comments = json.loads((ROOT / "editors" / "vscode" / "language-configuration.json")
                          .read_text("utf-8"))["comments"]["lineComment"]
    assert language == {"name": "boodle", "scope": "source.boodle", "file-types": ["boodle"],
                        "comment-token": comments, "language-servers": ["boodle"]}
    # added to a languages.toml that configures another language already
    mine = '[[language]]\nname = "rust"\nauto-format = false\n'
    assert len(tomllib.loads(mine + "\n" + toml)["language"]) == 2
