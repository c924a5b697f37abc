// Top navigation for signed-in users:
// Dashboard, Issues, 'New Issue', the usage badge and the user menu
// (an avatar menu on desktop, a side drawer on mobile) with Account, Subscription and Sign Out.
import { useState, type MouseEvent, type ReactElement } from 'react';
import { Link as RouterLink, useMatch } from 'react-router-dom';
import AppBar from '@mui/material/AppBar';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import AddRoundedIcon from '@mui/icons-material/AddRounded';
import CloseRoundedIcon from '@mui/icons-material/CloseRounded';
import CreditCardRoundedIcon from '@mui/icons-material/CreditCardRounded';
import DashboardRoundedIcon from '@mui/icons-material/DashboardRounded';
import ListAltRoundedIcon from '@mui/icons-material/ListAltRounded';
import LogoutRoundedIcon from '@mui/icons-material/LogoutRounded';
import ManageAccountsRoundedIcon from '@mui/icons-material/ManageAccountsRounded';
import MenuRoundedIcon from '@mui/icons-material/MenuRounded';
import { Logo } from '../components/Logo';
import { UsageBadge } from '../features/usage/UsageBadge';
import { clearFormDraft, userDraftKey } from '../features/issueform/draft';
import { useLeaveSignedIn } from './leaveSignedIn';
import { useAuth } from './useAuth';
import { userDisplayName, userInitials } from './userDisplay';

export const signedInLinks = [
  { label: 'Dashboard', to: '/dashboard', icon: <DashboardRoundedIcon fontSize="small" /> },
  { label: 'Issues', to: '/issues', icon: <ListAltRoundedIcon fontSize="small" /> },
];

/** The user menu's and the drawer's entries for the maker's own account. */
const userLinks = [
  { label: 'Account', to: '/account', icon: <ManageAccountsRoundedIcon fontSize="small" /> },
  { label: 'Subscription', to: '/subscribe', icon: <CreditCardRoundedIcon fontSize="small" /> },
];

function useActive(to: string): boolean {
  return useMatch({ path: to, end: false }) !== null;
}

function DesktopLink({ label, to }: { label: string; to: string }) {
  const active = useActive(to);
  return (
    <Button
      component={RouterLink}
      to={to}
      aria-current={active ? 'page' : undefined}
      sx={{
        px: 1.5,
        color: active ? 'primary.main' : 'text.secondary',
        bgcolor: active ? 'action.selected' : 'transparent',
        '&:hover': { color: 'text.primary' },
      }}
    >
      {label}
    </Button>
  );
}

function DrawerLink({ label, to, icon, onClick }: { label: string; to: string; icon: ReactElement; onClick: () => void }) {
  const active = useActive(to);
  return (
    <ListItemButton component={RouterLink} to={to} onClick={onClick} selected={active} aria-current={active ? 'page' : undefined}>
      <ListItemIcon sx={{ minWidth: 36 }}>{icon}</ListItemIcon>
      <ListItemText primary={label} />
    </ListItemButton>
  );
}

function UserAvatar({ size = 36 }: { size?: number }) {
  const { user } = useAuth();
  return (
    <Avatar
      sx={{ width: size, height: size, bgcolor: 'primary.main', color: 'primary.contrastText', fontSize: size * 0.4, fontWeight: 700 }}
    >
      {userInitials(user)}
    </Avatar>
  );
}

/** The name and email block at the top of the menu and the drawer. */
function UserSummary() {
  const { user } = useAuth();
  return (
    <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', minWidth: 0 }}>
      <UserAvatar size={40} />
      <Box sx={{ minWidth: 0 }}>
        <Typography sx={{ fontWeight: 700 }} noWrap data-testid="user-name">
          {userDisplayName(user)}
        </Typography>
        <Typography variant="body2" color="text.secondary" noWrap data-testid="user-email">
          {user?.email}
        </Typography>
      </Box>
    </Stack>
  );
}

export function SignedInNav() {
  const { signOut, user } = useAuth();
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const closeAll = () => {
    setMenuAnchor(null);
    setDrawerOpen(false);
  };

  const leave = useLeaveSignedIn();
  const handleSignOut = () => {
    closeAll();
    leave(async () => {
      // Signing out on purpose leaves nothing typed behind for the next person at this browser
      // (the form has been left, so its last draft is written by now).
      if (user) clearFormDraft(userDraftKey(user));
      await signOut(); // failures are only logged, by the provider
    });
  };

  return (
    <AppBar
      position="sticky"
      sx={{ bgcolor: 'background.paper', borderBottom: 1, borderColor: 'divider', backdropFilter: 'saturate(180%) blur(8px)' }}
    >
      <Container maxWidth="lg">
        {/* On a 360 px phone the logo's mark, the whole usage badge and the menu button must fit. */}
        <Toolbar disableGutters sx={{ gap: { xs: 1, sm: 2 }, minHeight: { xs: 60, md: 68 } }}>
          <Logo to="/dashboard" markOnlyOnPhones />
          <Box component="nav" aria-label="Main" sx={{ display: { xs: 'none', md: 'flex' }, gap: 0.5, ml: 3 }}>
            {signedInLinks.map((l) => (
              <DesktopLink key={l.to} label={l.label} to={l.to} />
            ))}
          </Box>
          <Box sx={{ flexGrow: 1 }} />
          <UsageBadge />
          <Stack direction="row" spacing={1.5} sx={{ display: { xs: 'none', md: 'flex' }, alignItems: 'center' }}>
            <Button component={RouterLink} to="/report-issue" variant="contained" startIcon={<AddRoundedIcon />}>
              New Issue
            </Button>
            <IconButton
              aria-label="Account menu"
              aria-haspopup="menu"
              aria-controls={menuAnchor ? 'user-menu' : undefined}
              aria-expanded={menuAnchor ? 'true' : undefined}
              onClick={(e: MouseEvent<HTMLElement>) => setMenuAnchor(e.currentTarget)}
              sx={{ p: 0.25 }}
            >
              <UserAvatar />
            </IconButton>
          </Stack>
          <IconButton
            edge="end"
            aria-label="Open menu"
            onClick={() => setDrawerOpen(true)}
            sx={{ display: { xs: 'inline-flex', md: 'none' } }}
          >
            <MenuRoundedIcon />
          </IconButton>
        </Toolbar>
      </Container>

      <Menu
        id="user-menu"
        anchorEl={menuAnchor}
        open={menuAnchor !== null}
        onClose={() => setMenuAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { mt: 1, minWidth: 240, maxWidth: 320 } } }}
      >
        <Box sx={{ px: 2, py: 1.5 }}>
          <UserSummary />
        </Box>
        <Divider />
        {userLinks.map((l) => (
          <MenuItem key={l.to} component={RouterLink} to={l.to} onClick={closeAll}>
            <ListItemIcon>{l.icon}</ListItemIcon>
            {l.label}
          </MenuItem>
        ))}
        <MenuItem onClick={handleSignOut}>
          <ListItemIcon>
            <LogoutRoundedIcon fontSize="small" />
          </ListItemIcon>
          Sign Out
        </MenuItem>
      </Menu>

      <Drawer anchor="right" open={drawerOpen} onClose={closeAll} slotProps={{ paper: { sx: { width: 300, maxWidth: '85vw' } } }}>
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', px: 2, py: 1.5 }}>
          <Logo to="/dashboard" />
          <IconButton aria-label="Close menu" onClick={closeAll}>
            <CloseRoundedIcon />
          </IconButton>
        </Box>
        <Divider />
        <Box sx={{ px: 2, py: 2 }} data-testid="drawer-user">
          <UserSummary />
        </Box>
        <Divider />
        <List component="nav" aria-label="Mobile">
          {signedInLinks.map((l) => (
            <DrawerLink key={l.to} {...l} onClick={closeAll} />
          ))}
          {userLinks.map((l) => (
            <DrawerLink key={l.to} {...l} onClick={closeAll} />
          ))}
        </List>
        <Stack spacing={1.5} sx={{ p: 2 }}>
          <Button component={RouterLink} to="/report-issue" variant="contained" startIcon={<AddRoundedIcon />} onClick={closeAll} fullWidth>
            New Issue
          </Button>
          <Button variant="outlined" color="inherit" startIcon={<LogoutRoundedIcon />} onClick={handleSignOut} fullWidth>
            Sign Out
          </Button>
        </Stack>
      </Drawer>
    </AppBar>
  );
}
