import { useSyncExternalStore } from 'react';
import clsx from 'clsx';
import Layout from '@theme/Layout';
import Heading from '@theme/Heading';
import Link from '@docusaurus/Link';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';

import CopyField from '@site/src/components/assistant/CopyField';
import {
  claudeCodeCommand,
  genericConfig,
  installLinks,
  mcpUrl,
  scriptCommands,
  SERVER_NAME,
  TOKEN_VARIABLE,
} from '@site/src/components/assistant/install-links';
import accountStyles from '@site/src/components/account/account.module.css';
import styles from '@site/src/components/assistant/assistant.module.css';

/** The page's origin never changes while it is open. */
const noChanges = (): (() => void) => () => undefined;

/**
 * The portal's address as the reader reaches it: the build's own address first (the server's
 * HTML), then the browser's origin once the page runs, which is the one an assistant on this
 * machine must use (they are the same in production; the text keeps its place either way).
 */
function useOrigin(): string {
  const { siteConfig } = useDocusaurusContext();
  return useSyncExternalStore(
    noChanges,
    () => window.location.origin,
    () => siteConfig.url,
  );
}

/**
 * `/account/assistant`: how a signed-in reader connects a coding assistant to the MCP server,
 * with the address to copy, one-click installs, the exact setup per client and how to check it.
 * It is under `/account`, a unit every signed-in reader holds; the gate sends anyone else to sign in.
 */
export default function AssistantPage(): React.JSX.Element {
  const origin = useOrigin();
  const url = mcpUrl(origin);
  const links = installLinks(url);
  return (
    <Layout
      title="Use with your assistant"
      description="Connect Claude Code, Claude Desktop, claude.ai, Cursor, VS Code, another MCP client or a script to the pages you may read."
    >
      <main className={clsx('container', accountStyles.page)}>
        <Heading as="h1">Use with your assistant</Heading>
        <p>
          Your coding assistant can search and read the pages you may read, through the portal’s MCP server. It signs in
          as you and reads exactly what you read, as your access is at each request.
        </p>

        <section className={accountStyles.card} aria-labelledby="address-heading">
          <h2 id="address-heading">The MCP address</h2>
          <CopyField label="MCP address" value={url} />
          <p className={accountStyles.muted}>
            It speaks Streamable HTTP. Name it <code>{SERVER_NAME}</code> in your client, or anything you like.
          </p>
        </section>

        <section className={accountStyles.card} aria-labelledby="install-heading">
          <h2 id="install-heading">Install with one click</h2>
          <p>Each link opens the application, which asks you to confirm before it adds the server.</p>
          <ul className={styles.installs}>
            <li>
              <a className="button button--primary" href={links.vscode}>
                Install in VS Code
              </a>
            </li>
            <li>
              <a className="button button--secondary" href={links.vscodeInsiders}>
                Install in VS Code Insiders
              </a>
            </li>
            <li>
              <a className="button button--primary" href={links.cursor}>
                Install in Cursor
              </a>
            </li>
          </ul>
        </section>

        <section className={accountStyles.card} aria-labelledby="setup-heading">
          <h2 id="setup-heading">Set it up by hand</h2>
          <h3 className={accountStyles.subheading}>Claude Code</h3>
          <p>Run this once in a terminal; then type /mcp in Claude Code to sign in.</p>
          <CopyField label="Claude Code command" value={claudeCodeCommand(url)} />
          <h3 className={accountStyles.subheading}>Claude Desktop and claude.ai</h3>
          <p>
            In Claude’s settings, open <strong>Connectors</strong>, choose <strong>Add custom connector</strong>, name
            it <code>{SERVER_NAME}</code> and give it the MCP address above; then choose <strong>Connect</strong> and
            sign in as below. The connector is the same in the desktop application and on claude.ai, and you turn it on
            per conversation from the tools menu.
          </p>
          <p className={accountStyles.muted}>
            A custom connector reaches the portal from Anthropic’s servers, not from your computer: it works when this
            address is reachable from the internet. For a portal on your company’s network, use Claude Code or another
            client that runs on your machine.
          </p>
          <h3 className={accountStyles.subheading}>Other clients</h3>
          <p>
            Most clients (Cursor’s <code>mcp.json</code>, Windsurf, Cline and others) read a server from JSON of this
            shape; merge it into theirs.
          </p>
          <CopyField label="MCP configuration" value={genericConfig(url)} block />
        </section>

        <section className={accountStyles.card} aria-labelledby="signin-heading">
          <h2 id="signin-heading">Signing in</h2>
          <p>
            There is no token to paste. The first time the assistant connects, it opens this portal in your browser:
            sign in if you are not already, then check the application’s name and choose <strong>Allow</strong>. It then
            appears under Connected apps on <Link to="/account">your account</Link>, where you can revoke it at any
            time.
          </p>
          <p>
            An assistant that cannot sign in this way (a script, a CI job, an older client) can send a personal access
            token instead, in the <code>Authorization: Bearer</code> header: create one on{' '}
            <Link to="/account">your account</Link>.
          </p>
        </section>

        <section className={accountStyles.card} aria-labelledby="scripts-heading">
          <h2 id="scripts-heading">Scripts and CI</h2>
          <p>
            A script or a CI job reads with a personal access token: create one on{' '}
            <Link to="/account">your account</Link>, keep it as a secret named <code>{TOKEN_VARIABLE}</code>, and call
            the search API or ask for any page with <code>.md</code> after its address. The token reads what you read,
            and stops when you revoke it.
          </p>
          <CopyField label="Commands for scripts and CI" value={scriptCommands(origin)} block />
        </section>

        <section className={accountStyles.card} aria-labelledby="check-heading">
          <h2 id="check-heading">Check that it works</h2>
          <ol className={styles.steps}>
            <li>
              List the server’s tools (<code>/mcp</code> in Claude Code, the tools menu in VS Code’s or Cursor’s chat):
              it offers <code>search_docs</code>, <code>read_page</code>, <code>list_sections</code>,{' '}
              <code>latest_changelog</code>, and for the packages with an API reference <code>get_symbol</code> and{' '}
              <code>api_changes</code>.
            </li>
            <li>
              Ask it something only these pages answer, for example “Search the Norigin docs for how focus moves between
              rows”: it should call <code>search_docs</code> and cite the pages it found.
            </li>
            <li>
              Ask it to read one of them: it calls <code>read_page</code> and gets the page as Markdown. A page you may
              not read is refused to it as it is to you.
            </li>
          </ol>
        </section>
      </main>
    </Layout>
  );
}
