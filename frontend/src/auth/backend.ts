import type { RuntimeConfig } from '../config';
import { createFirebaseBackend } from './firebaseBackend';
import { createLocalBackend } from './localBackend';
import type { AuthBackend } from './types';

/** The identity backend of the configured auth mode. */
export function createAuthBackend(cfg: RuntimeConfig): AuthBackend {
  if (cfg.authMode === 'firebase' && cfg.firebase) return createFirebaseBackend(cfg.firebase, cfg.authEmulatorUrl);
  return createLocalBackend({ emailEnabled: cfg.emailEnabled });
}
