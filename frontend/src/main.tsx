// The entry: small, and free of React and the app, so a prerendered page loads almost no script
// until someone is on it (boot/startMode.ts says when the app starts, boot/takeover.ts how a
// prerendered page is taken over).
import { scrubAddressBar } from './addressBar';
import { startAnalyticsIfConsented } from './analytics';
import { armPrerendered } from './boot/takeover';
import { startMode } from './boot/startMode';
import { config } from './config';

// One-time codes leave the address bar before any other script can read it.
scrubAddressBar();
startAnalyticsIfConsented();

const root = document.getElementById('root')!;
const mode = startMode(root, config);
const loadApp = () => import('./boot/app');

if (mode === 'hydrate') {
  const takeover = armPrerendered(root, () => loadApp().then(({ startApp }) => startApp(root, mode, takeover.finish)));
} else {
  void loadApp().then(({ startApp }) => startApp(root, mode));
}
