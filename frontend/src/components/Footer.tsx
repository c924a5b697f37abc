import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { analyticsConfigured } from '../analytics';
import { reopenConsent } from './ConsentBanner';
import { LogoMark } from './Logo';

export const FOOTER_TAGLINE = 'AI-powered 3D printer troubleshooting for makers worldwide';

export const footerLinks = [
  { label: 'Privacy Policy', to: '/privacy-policy' },
  { label: 'Terms of Service', to: '/terms-of-service' },
  { label: 'Pricing', to: '/pricing' },
  { label: 'Features', to: '/features' },
];

/** Footer on every screen: legal and product links, copyright, tagline. */
export function Footer() {
  const year = new Date().getFullYear();
  return (
    <Box component="footer" sx={{ borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper', mt: 'auto' }}>
      <Container maxWidth="lg" sx={{ py: { xs: 4, md: 5 } }}>
        <Stack
          direction={{ xs: 'column', md: 'row' }}
          spacing={{ xs: 3, md: 4 }}
          sx={{ justifyContent: 'space-between', alignItems: { xs: 'flex-start', md: 'center' } }}
        >
          <Stack spacing={1}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <LogoMark size={24} />
              <Typography sx={{ fontWeight: 800 }}>Layerfix</Typography>
            </Stack>
            <Typography variant="body2" color="text.secondary">
              {FOOTER_TAGLINE}
            </Typography>
          </Stack>
          <Box
            component="nav"
            aria-label="Footer"
            sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 3, rowGap: 1 }}
          >
            {footerLinks.map((l) => (
              <Link key={l.to} component={RouterLink} to={l.to} variant="body2" color="text.secondary">
                {l.label}
              </Link>
            ))}
            {analyticsConfigured() && (
              <Link component="button" type="button" variant="body2" color="text.secondary" onClick={reopenConsent}>
                Analytics settings
              </Link>
            )}
          </Box>
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 3 }}>
          © {year} Layerfix. All rights reserved.
        </Typography>
      </Container>
    </Box>
  );
}
