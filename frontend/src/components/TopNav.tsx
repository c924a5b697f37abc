import { useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Toolbar from '@mui/material/Toolbar';
import MenuRoundedIcon from '@mui/icons-material/MenuRounded';
import CloseRoundedIcon from '@mui/icons-material/CloseRounded';
import { Logo } from './Logo';
import { SignedInNav } from '../auth/SignedInNav';
import { useAuth } from '../auth/useAuth';

export interface NavLinkItem {
  label: string;
  to: string;
}

/** Links of the signed-out navigation bar. */
export const signedOutLinks: NavLinkItem[] = [
  { label: 'Features', to: '/features' },
  { label: 'Pricing', to: '/pricing' },
];

/** True when `pathname` is the route of `to` (or below it). */
export function isActiveRoute(pathname: string, to: string): boolean {
  const path = to.split('?')[0];
  if (path === '/') return pathname === '/';
  return pathname === path || pathname.startsWith(`${path}/`);
}

/** Top navigation: the signed-in variant for a user, else the signed-out one. */
export function TopNav() {
  const { user } = useAuth();
  return user ? <SignedInNav /> : <SignedOutNav />;
}

/** Top navigation, signed-out variant: logo to /, Features, Pricing, Sign In, Get Started. */
function SignedOutNav() {
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);

  return (
    <AppBar
      position="sticky"
      sx={{
        bgcolor: 'background.paper',
        borderBottom: 1,
        borderColor: 'divider',
        backdropFilter: 'saturate(180%) blur(8px)',
      }}
    >
      <Container maxWidth="lg">
        <Toolbar disableGutters sx={{ gap: 2, minHeight: { xs: 60, md: 68 } }}>
          <Logo to="/" />
          <Box component="nav" aria-label="Main" sx={{ display: { xs: 'none', md: 'flex' }, gap: 0.5, ml: 3 }}>
            {signedOutLinks.map((l) => {
              const active = isActiveRoute(pathname, l.to);
              return (
                <Button
                  key={l.to}
                  component={RouterLink}
                  to={l.to}
                  aria-current={active ? 'page' : undefined}
                  color={active ? 'primary' : 'inherit'}
                  sx={{
                    px: 1.5,
                    color: active ? 'primary.main' : 'text.secondary',
                    bgcolor: active ? 'action.selected' : 'transparent',
                    '&:hover': { color: 'text.primary' },
                  }}
                >
                  {l.label}
                </Button>
              );
            })}
          </Box>
          <Box sx={{ flexGrow: 1 }} />
          <Stack direction="row" spacing={1} sx={{ display: { xs: 'none', md: 'flex' } }}>
            <Button
              component={RouterLink}
              to="/login"
              color="inherit"
              aria-current={isActiveRoute(pathname, '/login') ? 'page' : undefined}
            >
              Sign In
            </Button>
            <Button component={RouterLink} to="/login?mode=signup" variant="contained">
              Get Started
            </Button>
          </Stack>
          <IconButton
            edge="end"
            aria-label="Open menu"
            onClick={() => setOpen(true)}
            sx={{ display: { xs: 'inline-flex', md: 'none' } }}
          >
            <MenuRoundedIcon />
          </IconButton>
        </Toolbar>
      </Container>
      <Drawer anchor="right" open={open} onClose={close} slotProps={{ paper: { sx: { width: 280 } } }}>
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', px: 2, py: 1.5 }}>
          <Logo to="/" />
          <IconButton aria-label="Close menu" onClick={close}>
            <CloseRoundedIcon />
          </IconButton>
        </Box>
        <Divider />
        <List component="nav" aria-label="Mobile">
          {signedOutLinks.map((l) => (
            <ListItemButton
              key={l.to}
              component={RouterLink}
              to={l.to}
              onClick={close}
              selected={isActiveRoute(pathname, l.to)}
              aria-current={isActiveRoute(pathname, l.to) ? 'page' : undefined}
            >
              <ListItemText primary={l.label} />
            </ListItemButton>
          ))}
        </List>
        <Stack spacing={1.5} sx={{ p: 2 }}>
          <Button component={RouterLink} to="/login" variant="outlined" onClick={close} fullWidth>
            Sign In
          </Button>
          <Button component={RouterLink} to="/login?mode=signup" variant="contained" onClick={close} fullWidth>
            Get Started
          </Button>
        </Stack>
      </Drawer>
    </AppBar>
  );
}
