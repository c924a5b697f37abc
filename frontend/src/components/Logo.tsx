import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** The layered "L" mark: three stacked extrusion lines. */
export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <Box
      component="svg"
      viewBox="0 0 32 32"
      aria-hidden="true"
      sx={{ width: size, height: size, flexShrink: 0, display: 'block' }}
    >
      <rect width="32" height="32" rx="8" fill="var(--mui-palette-primary-main)" />
      <path
        d="M8 23h16M10 17.5h12M12 12h8"
        stroke="var(--mui-palette-primary-contrastText)"
        strokeWidth="3"
        strokeLinecap="round"
      />
    </Box>
  );
}

/**
 * Logo with wordmark, linking to `to`. With `markOnlyOnPhones` the wordmark is left out below the
 * `sm` breakpoint, where a busy toolbar needs the room (the link keeps its name).
 */
export function Logo({ to = '/', markOnlyOnPhones = false }: { to?: string; markOnlyOnPhones?: boolean }) {
  return (
    <Box
      component={RouterLink}
      to={to}
      aria-label="Layerfix home"
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, color: 'text.primary', textDecoration: 'none' }}
    >
      <LogoMark />
      <Typography
        component="span"
        sx={{
          fontWeight: 800,
          fontSize: '1.25rem',
          letterSpacing: '-0.02em',
          display: markOnlyOnPhones ? { xs: 'none', sm: 'inline' } : undefined,
        }}
      >
        Layerfix
      </Typography>
    </Box>
  );
}
