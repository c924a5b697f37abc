import { createContext } from 'react';
import type { ReactNode } from 'react';

/** Toasts show for 5000 ms by default. */
export const TOAST_DURATION_MS = 5000;

export type ToastVariant = 'default' | 'success' | 'info' | 'warning' | 'error' | 'destructive';

export interface ToastOptions {
  title?: ReactNode;
  description?: ReactNode;
  /** 'destructive' and 'error' are shown the same way. */
  variant?: ToastVariant;
  duration?: number;
}

export interface ToastApi {
  /** Shows a toast, replacing any toast already on screen; returns its id. */
  toast: (options: ToastOptions) => number;
  dismiss: () => void;
}

export const ToastContext = createContext<ToastApi | null>(null);
