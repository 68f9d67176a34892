/**
 * What the "Use with your assistant" page offers a reader: the portal's MCP address and the
 * ways each client takes it. Pure functions of the address, so the page and its tests agree.
 */

/** The name an assistant lists the portal under, in every client. */
export const SERVER_NAME = 'norigin-docs';

/** The MCP server's address on the portal at `origin` (e.g. `https://docs.example.com`). */
export const mcpUrl = (origin: string): string => `${origin.replace(/\/+$/, '')}/mcp`;

/** A client's one-click install: VS Code's (and its Insiders build's) and Cursor's links. */
export interface InstallLinks {
  vscode: string;
  vscodeInsiders: string;
  cursor: string;
}

/** Base64 of a UTF-8 string, in the browser and in Node alike. */
const base64 = (text: string): string => {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
};

/**
 * VS Code takes `vscode:mcp/install?` and the URL-encoded JSON of one server (name, transport
 * and address); Cursor takes the name and the base64 of its `mcp.json` entry for the server.
 * Neither carries a secret: the client signs the reader in through OAuth on first use.
 */
export function installLinks(url: string, name: string = SERVER_NAME): InstallLinks {
  const vscodeServer = encodeURIComponent(JSON.stringify({ name, type: 'http', url }));
  const cursorConfig = encodeURIComponent(base64(JSON.stringify({ url })));
  return {
    vscode: `vscode:mcp/install?${vscodeServer}`,
    vscodeInsiders: `vscode-insiders:mcp/install?${vscodeServer}`,
    cursor: `cursor://anysphere.cursor-deeplink/mcp/install?name=${encodeURIComponent(name)}&config=${cursorConfig}`,
  };
}

/** Claude Code's command line that adds the portal over Streamable HTTP. */
export const claudeCodeCommand = (url: string, name: string = SERVER_NAME): string =>
  `claude mcp add --transport http ${name} ${url}`;

/** The `mcpServers` entry most other clients read (Cursor's `mcp.json`, Windsurf, Cline, …). */
export const genericConfig = (url: string, name: string = SERVER_NAME): string =>
  JSON.stringify({ mcpServers: { [name]: { type: 'http', url } } }, null, 2);

/** The environment variable the ready commands read a personal access token from. */
export const TOKEN_VARIABLE = 'NORIGIN_DOCS_TOKEN';

/**
 * Commands a script or a CI job runs with a personal access token (in `TOKEN_VARIABLE`, a CI
 * secret): the search API, and a page as Markdown, each failing on an error answer.
 */
export function scriptCommands(origin: string, page = '/docs/Norigin-Spatial-Navigation/GUIDE'): string {
  const base = origin.replace(/\/+$/, '');
  const auth = `-H "Authorization: Bearer $${TOKEN_VARIABLE}"`;
  return [
    `curl -fsS ${auth} "${base}/api/search?q=useFocusable&limit=5"`,
    `curl -fsS ${auth} "${base}${page}.md"`,
  ].join('\n');
}
