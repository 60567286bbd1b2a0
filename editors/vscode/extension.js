// The VS Code client of boodle's language server: it starts `boodle lsp` (stdio) for
// .boodle files. Everything the editor shows (diagnostics, quick fixes, hover, completion,
// go to definition, the outline, formatting) comes from the server; this file starts it,
// and makes the installed package's built-in variants (where go to definition on
// `extends michigan` leads) read-only: the server names their folder
// (boodle/readOnlyFolder; none in a source checkout).
"use strict";

const path = require("path");
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

async function activate(context) {
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
      initializationOptions: {
        verifyOnSave: settings.get("verifyOnSave", false),
        verifyTimeout: settings.get("verifyTimeout", 120),
      },
    },
  );
  context.subscriptions.push(client);
  await client.start();
  const folder = await client.sendRequest("boodle/readOnlyFolder");
  if (folder) {
    const readOnly = (editor) => {
      const uri = editor && editor.document.uri;
      if (uri && uri.scheme === "file" && uri.fsPath.startsWith(folder + path.sep)) {
        vscode.commands.executeCommand("workbench.action.files.setActiveEditorReadonlyInSession");
      }
    };
    context.subscriptions.push(vscode.window.onDidChangeActiveTextEditor(readOnly));
    readOnly(vscode.window.activeTextEditor);
  }
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
