import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button.js';
import { serverMessage } from '../../store/api-errors.js';
import { useSignInMutation } from '../../store/sales-api.js';
import { Alert, Field, Heading, Muted, Panel } from './parts.js';

/** The operations token, exchanged for the page's session; the token itself is kept nowhere in the page. */
export function SignInForm() {
  const [token, setToken] = useState('');
  const [signIn, { isLoading, error }] = useSignInMutation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void signIn({ token }).then((result) => {
      if (!('error' in result)) setToken('');
    });
  };
  return (
    <Panel aria-labelledby="sign-in-title">
      <Heading id="sign-in-title">Sign in to the sales page</Heading>
      <Muted>Use the operations token (ADMIN_TOKEN). You stay signed in for eight hours on this browser.</Muted>
      <form onSubmit={submit} noValidate>
        <Field>
          <label htmlFor="admin-token">Operations token</label>
          <input
            id="admin-token"
            name="token"
            type="password"
            autoComplete="current-password"
            required
            value={token}
            onChange={(event) => setToken(event.target.value)}
            aria-describedby={error ? 'sign-in-error' : undefined}
            aria-invalid={error ? true : undefined}
          />
        </Field>
        <p>
          <Button type="submit" disabled={isLoading || token === ''}>
            {isLoading ? 'Signing in…' : 'Sign in'}
          </Button>
        </p>
      </form>
      <div role="alert">
        {error ? (
          <Alert id="sign-in-error">{serverMessage(error) ?? 'Could not sign in. Please try again.'}</Alert>
        ) : null}
      </div>
    </Panel>
  );
}
