// The VS Code client of boodle's language server: it starts `boodle lsp` (stdio) for
// .boodle files. Everything the editor shows (diagnostics, quick fixes, hover, completion,
// go to definition, the outline) comes from the server; this file only starts it.
"use strict";

const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const settings = vscode.workspace.getConfiguration("boodle");
  const [command, ...args] = settings.get("server.command", ["boodle", "lsp"]);
  const server = { command, args };
  client = new LanguageClient(
    "boodle",
    "boodle language server",
    { run: server, debug: server },
    {
      documentSelector: [
        { scheme: "file", language: "boodle" },
        { scheme: "untitled", language: "boodle" },
      ],
      initializationOptions: { verifyOnSave: settings.get("verifyOnSave", false) },
    },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
