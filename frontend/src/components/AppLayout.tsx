import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import { FinishSignOut } from '../auth/leaveSignedIn';
import { TopNav } from './TopNav';
import { Footer } from './Footer';

/** Page frame: top navigation, the screen, the footer (and the sign-out waiting for /). */
export function AppLayout({ children }: { children: ReactNode }) {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <FinishSignOut />
      <TopNav />
      <Box component="main" sx={{ flexGrow: 1 }}>
        {children}
      </Box>
      <Footer />
    </Box>
  );
}
