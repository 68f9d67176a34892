import Layout from '@theme/Layout';
import Heading from '@theme/Heading';

/**
 * The sign-in page. The form (e-mail and password, and GitHub) arrives with the gate
 * server; until then the whole portal is readable without signing in.
 */
export default function Login(): React.JSX.Element {
  return (
    <Layout title="Sign in" description="Sign in to read the Norigin developer documentation.">
      <main className="container margin-vert--xl">
        <div className="row">
          <div className="col col--6 col--offset-3">
            <Heading as="h1">Sign in</Heading>
            <p>
              Readers sign in with their e-mail and password or their GitHub account. Sign-in is not enabled in this
              build yet, so every page of the portal is open.
            </p>
          </div>
        </div>
      </main>
    </Layout>
  );
}
