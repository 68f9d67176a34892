import { describe, expect, it } from 'vitest';

import { claudeCodeCommand, genericConfig, installLinks, mcpUrl, scriptCommands, SERVER_NAME } from './install-links';

const decodeCursorConfig = (link: string): unknown => {
  const config = new URL(link).searchParams.get('config');
  return JSON.parse(Buffer.from(String(config), 'base64').toString('utf8'));
};

describe('the MCP address and install links', () => {
  it('puts /mcp on the origin, with or without a trailing slash', () => {
    expect(mcpUrl('https://docs.example.com')).toBe('https://docs.example.com/mcp');
    expect(mcpUrl('http://localhost:3000/')).toBe('http://localhost:3000/mcp');
  });

  it('gives VS Code and its Insiders build the URL-encoded JSON of one HTTP server', () => {
    const links = installLinks('https://docs.example.com/mcp');
    const prefix = 'vscode:mcp/install?';
    expect(links.vscode.startsWith(prefix)).toBe(true);
    expect(JSON.parse(decodeURIComponent(links.vscode.slice(prefix.length)))).toEqual({
      name: SERVER_NAME,
      type: 'http',
      url: 'https://docs.example.com/mcp',
    });
    expect(links.vscodeInsiders).toBe(links.vscode.replace(/^vscode:/, 'vscode-insiders:'));
  });

  it('gives Cursor the name and the base64 of its config, safe in a query', () => {
    const links = installLinks('http://localhost:3000/mcp', 'docs+?');
    expect(links.cursor.startsWith('cursor://anysphere.cursor-deeplink/mcp/install?')).toBe(true);
    expect(new URL(links.cursor).searchParams.get('name')).toBe('docs+?');
    expect(decodeCursorConfig(links.cursor)).toEqual({ url: 'http://localhost:3000/mcp' });
    // A base64 '+', '/' or '=' would be read otherwise in a query: each is escaped.
    expect(links.cursor.split('config=')[1]).not.toMatch(/[+/=]/);
  });

  it('writes the Claude Code command and the generic JSON with the same address', () => {
    expect(claudeCodeCommand('https://d.example/mcp')).toBe(
      'claude mcp add --transport http norigin-docs https://d.example/mcp',
    );
    expect(JSON.parse(genericConfig('https://d.example/mcp'))).toEqual({
      mcpServers: { 'norigin-docs': { type: 'http', url: 'https://d.example/mcp' } },
    });
  });
});

describe('the ready commands for scripts and CI', () => {
  it('search and read a page with the token of the environment, failing on an error answer', () => {
    expect(scriptCommands('https://docs.example.com/').split('\n')).toEqual([
      'curl -fsS -H "Authorization: Bearer $NORIGIN_DOCS_TOKEN" "https://docs.example.com/api/search?q=useFocusable&limit=5"',
      'curl -fsS -H "Authorization: Bearer $NORIGIN_DOCS_TOKEN" "https://docs.example.com/docs/Norigin-Spatial-Navigation/GUIDE.md"',
    ]);
  });
});
