import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import ArrowBackRoundedIcon from '@mui/icons-material/ArrowBackRounded';

export const LEGAL_LAST_UPDATED = 'June 7, 2025';

export interface LegalSection {
  title: string;
  body: ReactNode;
}

/** A static legal document with numbered sections and a link back home. */
export function LegalPage({ title, intro, sections }: { title: string; intro: ReactNode; sections: LegalSection[] }) {
  return (
    <Container maxWidth="md" sx={{ py: { xs: 5, md: 8 } }}>
      <Button component={RouterLink} to="/" startIcon={<ArrowBackRoundedIcon />} sx={{ mb: 3, ml: -1 }}>
        Back to Home
      </Button>
      <Typography variant="h3" component="h1" sx={{ fontSize: { xs: '2rem', md: '2.75rem' }, mb: 1 }}>
        {title}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Last updated {LEGAL_LAST_UPDATED}
      </Typography>
      <Typography sx={{ mb: 4 }} component="div">
        {intro}
      </Typography>
      <Divider sx={{ mb: 4 }} />
      <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0, counterReset: 'legal' }}>
        {sections.map((s, i) => (
          <Box component="li" key={s.title} sx={{ mb: 4 }}>
            <Typography variant="h5" component="h2" sx={{ mb: 1.5 }}>
              {i + 1}. {s.title}
            </Typography>
            <Box sx={{ color: 'text.secondary', '& p': { mt: 0, mb: 1.5 }, '& ul': { mt: 0, pl: 3 }, '& li': { mb: 0.5 } }}>
              {s.body}
            </Box>
          </Box>
        ))}
      </Box>
    </Container>
  );
}

/** The operator name from the runtime configuration, with a neutral fallback. */
export function operatorText(name: string): string {
  return name.trim() || 'the operator of this Layerfix service';
}

/** ", operated by NAME," or nothing when no operator name is configured. */
export function operatedBy(name: string): string {
  return name.trim() ? `, operated by ${name.trim()},` : '';
}
