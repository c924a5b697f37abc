import { afterEach, describe, expect, it } from 'vitest';
import { capturedActionLink, forgetActionLink, isSecretParam, scrubAddressBar } from './addressBar';

afterEach(() => {
  window.history.replaceState(null, '', '/');
  forgetActionLink();
});

const scrubbed = (address: string) => {
  window.history.replaceState({ idx: 3 }, '', address);
  scrubAddressBar();
  return `${window.location.pathname}${window.location.search}${window.location.hash}`;
};

describe('scrubAddressBar', () => {
  it('takes a local reset link out of the address bar and keeps its code for /login', () => {
    expect(scrubbed('/login?mode=reset&oobCode=c0de')).toBe('/login');
    expect(capturedActionLink()).toEqual({ mode: 'reset', oobCode: 'c0de' });
    expect(window.history.state).toEqual({ idx: 3 });
  });

  it('removes every part of a Firebase action link', () => {
    expect(scrubbed('/login?mode=resetPassword&oobCode=abc&apiKey=AIza&continueUrl=https%3A%2F%2Fx&lang=en&tenantId=t')).toBe('/login');
    expect(capturedActionLink()).toEqual({ mode: 'resetPassword', oobCode: 'abc' });
  });

  it('removes code, token, secret and key parameters anywhere, keeping the rest', () => {
    expect(scrubbed('/subscribe?setup_intent=seti_1&setup_intent_client_secret=seti_1_secret_x&redirect_status=succeeded&tier=pro')).toBe(
      '/subscribe?setup_intent=seti_1&redirect_status=succeeded&tier=pro',
    );
    expect(scrubbed('/?code=1&token=2&access_token=3&id_token=4&sig=5&share=keep')).toBe('/?share=keep');
    expect(scrubbed('/features#access_token=abc&state=s')).toBe('/features#state=s');
    expect(scrubbed('/features#id_token=abc')).toBe('/features');
    // A code found elsewhere than /login is removed, not kept for the sign-in screen.
    expect(scrubbed('/pricing?oobCode=elsewhere')).toBe('/pricing');
    expect(capturedActionLink()).toBeNull();
  });

  it('leaves an address without secrets as it is', () => {
    for (const address of ['/login?mode=signup', '/preview?share=AbCdEfGhIjKlMnOpQrSt', '/report-issue?printerId=3', '/features#faq']) {
      expect(scrubbed(address)).toBe(address);
    }
  });

  it('knows secret parameter names', () => {
    for (const name of ['oobCode', 'apiKey', 'code', 'token', 'refresh_token', 'client_secret', 'signature', 'password']) {
      expect(isSecretParam(name), name).toBe(true);
    }
    for (const name of ['share', 'mode', 'tier', 'printerId', 'setup_intent', 'redirect_status']) {
      expect(isSecretParam(name), name).toBe(false);
    }
  });
});
