export { ToastProvider } from './ToastProvider';
export { useToast } from './useToast';
export { TOAST_DURATION_MS } from './context';
export type { ToastOptions, ToastVariant, ToastApi } from './context';
