// The Layerfix MUI theme: a warm "filament orange" primary on slate neutrals,
// light and dark schemes switched by the system preference through CSS
// variables (no JavaScript needed, no flash on load).
import { createTheme } from '@mui/material/styles';

export const TOOLTIP_ENTER_DELAY_MS = 700;

const fontStack = [
  'Inter',
  'system-ui',
  '-apple-system',
  '"Segoe UI"',
  'Roboto',
  '"Helvetica Neue"',
  'Arial',
  'sans-serif',
].join(',');

export const theme = createTheme({
  cssVariables: { colorSchemeSelector: 'media' },
  colorSchemes: {
    light: {
      palette: {
        // Darker than the brand's #ea580c so text and filled buttons pass WCAG AA (4.5:1) on white.
        primary: { main: '#c2410c', light: '#ea580c', dark: '#9a3412', contrastText: '#ffffff' },
        secondary: { main: '#0f766e', contrastText: '#ffffff' },
        success: { main: '#15803d', contrastText: '#ffffff' },
        warning: { main: '#b45309', contrastText: '#ffffff' },
        error: { main: '#dc2626' },
        info: { main: '#2563eb' },
        background: { default: '#f8fafc', paper: '#ffffff' },
        text: { primary: '#0f172a', secondary: '#475569' },
        divider: '#e2e8f0',
      },
    },
    dark: {
      palette: {
        primary: { main: '#fb923c', light: '#fdba74', dark: '#ea580c', contrastText: '#1c1917' },
        secondary: { main: '#2dd4bf', contrastText: '#042f2e' },
        success: { main: '#4ade80' },
        warning: { main: '#fbbf24' },
        error: { main: '#f87171' },
        info: { main: '#60a5fa' },
        background: { default: '#0b1120', paper: '#111827' },
        text: { primary: '#f1f5f9', secondary: '#94a3b8' },
        divider: '#1f2937',
      },
    },
  },
  shape: { borderRadius: 10 },
  typography: {
    fontFamily: fontStack,
    h1: { fontWeight: 800, letterSpacing: '-0.03em' },
    h2: { fontWeight: 800, letterSpacing: '-0.02em' },
    h3: { fontWeight: 700, letterSpacing: '-0.02em' },
    h4: { fontWeight: 700, letterSpacing: '-0.01em' },
    h5: { fontWeight: 700 },
    h6: { fontWeight: 700 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiTooltip: { defaultProps: { enterDelay: TOOLTIP_ENTER_DELAY_MS, enterNextDelay: TOOLTIP_ENTER_DELAY_MS, arrow: true } },
    MuiButton: {
      defaultProps: { disableElevation: true },
      styleOverrides: { root: { borderRadius: 10 }, sizeLarge: { padding: '10px 22px' } },
    },
    MuiCard: {
      defaultProps: { variant: 'outlined' },
      styleOverrides: { root: { borderRadius: 16 } },
    },
    MuiPaper: { styleOverrides: { rounded: { borderRadius: 16 } } },
    MuiChip: { styleOverrides: { root: { fontWeight: 600 } } },
    MuiAppBar: { defaultProps: { elevation: 0, color: 'inherit' } },
    MuiLink: { defaultProps: { underline: 'hover' } },
  },
});
