import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import App from './App';
import { scrubAddressBar } from './addressBar';
import { startAnalyticsIfConsented } from './analytics';
import { config } from './config';
import { preloadRoute } from './routes';

// One-time codes leave the address bar before any other script can read it.
scrubAddressBar();
startAnalyticsIfConsented();

const container = document.getElementById('root')!;

function mount() {
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

// A prerendered page is already on screen: load its screen first so the first commit replaces
// it with the same screen rather than with a loader.
if (container.firstElementChild) {
  const path = window.location.pathname.slice(config.basePath.length) || '/';
  preloadRoute(path).then(mount, mount);
} else {
  mount();
}
