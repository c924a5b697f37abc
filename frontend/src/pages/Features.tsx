import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AutoAwesomeRoundedIcon from '@mui/icons-material/AutoAwesomeRounded';
import BoltRoundedIcon from '@mui/icons-material/BoltRounded';
import CheckCircleRoundedIcon from '@mui/icons-material/CheckCircleRounded';
import GpsFixedRoundedIcon from '@mui/icons-material/GpsFixedRounded';
import LockRoundedIcon from '@mui/icons-material/LockRounded';
import PhotoCameraRoundedIcon from '@mui/icons-material/PhotoCameraRounded';
import PrecisionManufacturingRoundedIcon from '@mui/icons-material/PrecisionManufacturingRounded';
import PsychologyRoundedIcon from '@mui/icons-material/PsychologyRounded';
import ScheduleRoundedIcon from '@mui/icons-material/ScheduleRounded';
import SmartphoneRoundedIcon from '@mui/icons-material/SmartphoneRounded';
import { config } from '../config';

interface Feature {
  icon: ReactNode;
  title: string;
  text: string;
}

// The photo feature as this server provides it: analysed with Gemini, kept with the issue otherwise.
export function photoFeature(imageAnalysis: boolean): Pick<Feature, 'title' | 'text'> {
  return imageAnalysis
    ? {
        title: 'Visual Problem Detection',
        text: 'Upload photos of the failed print. Image analysis spots stringing, warping, layer shifts and gaps you might miss.',
      }
    : {
        title: 'Photos With Every Issue',
        text: 'Attach photos of the failed print and keep them with the issue. The diagnosis on this server reads your description and settings.',
      };
}

const FEATURES: Feature[] = [
  {
    icon: <PsychologyRoundedIcon />,
    title: 'AI-Powered Diagnostics',
    text: 'Describe what went wrong and get a clear analysis of the likely causes, from first-layer trouble to extrusion faults.',
  },
  { icon: <PhotoCameraRoundedIcon />, ...photoFeature(config.imageAnalysis) },
  {
    icon: <PrecisionManufacturingRoundedIcon />,
    title: 'Smart Printer Management',
    text: 'Keep a profile for every printer with nozzle size and build volume, so each diagnosis fits the machine.',
  },
  {
    icon: <GpsFixedRoundedIcon />,
    title: 'Precision Recommendations',
    text: 'Fixes come ranked from most likely to less common, with the exact settings and checks to try.',
  },
  {
    icon: <BoltRoundedIcon />,
    title: 'Instant Resolution',
    text: 'Get answers in seconds, tick off the steps that worked and keep a log of every issue you solved.',
  },
];

const BENEFITS = [
  'Save hours of troubleshooting',
  'Reduce material waste',
  'Learn proper techniques',
  'Access expert knowledge instantly',
  'Track printer performance over time',
];

const BADGES: Feature[] = [
  { icon: <SmartphoneRoundedIcon />, title: 'Mobile Optimized', text: 'Works at the printer, on your phone.' },
  { icon: <LockRoundedIcon />, title: 'Secure & Private', text: 'Your data stays yours.' },
  {
    icon: <AutoAwesomeRoundedIcon />,
    title: 'AI-Powered',
    text: config.imageAnalysis ? 'Every symptom and photo analyzed.' : 'Every symptom and setting analyzed.',
  },
  { icon: <ScheduleRoundedIcon />, title: '24/7 Available', text: 'Help whenever a print fails.' },
];

function IconTile({ children }: { children: ReactNode }) {
  return (
    <Box
      sx={{
        width: 48,
        height: 48,
        borderRadius: 3,
        display: 'grid',
        placeItems: 'center',
        bgcolor: 'primary.main',
        color: 'primary.contrastText',
        flexShrink: 0,
      }}
    >
      {children}
    </Box>
  );
}

/** Marketing page: hero, five features, benefits, badges and a closing call to action. */
export default function Features() {
  return (
    <>
      <Box
        component="section"
        sx={{
          background:
            'radial-gradient(1200px 500px at 50% -10%, rgba(234, 88, 12, 0.16), transparent 70%)',
          pt: { xs: 5, md: 9 },
          pb: { xs: 7, md: 11 },
        }}
      >
        <Container maxWidth="md" sx={{ textAlign: 'center' }}>
          <Chip
            icon={<AutoAwesomeRoundedIcon />}
            label="AI-Powered 3D Print Troubleshooting"
            color="primary"
            variant="outlined"
            sx={{ mb: 3, bgcolor: 'background.paper' }}
          />
          <Typography
            variant="h1"
            sx={{ fontSize: { xs: '2.5rem', sm: '3.25rem', md: '4rem' }, lineHeight: 1.05, mb: 2.5 }}
          >
            Fix Every Print{' '}
            <Box component="span" sx={{ color: 'primary.main', display: { sm: 'block' } }}>
              Like a Pro
            </Box>
          </Typography>
          <Typography color="text.secondary" sx={{ fontSize: { xs: '1.05rem', md: '1.25rem' }, maxWidth: 620, mx: 'auto', mb: 4 }}>
            Clear answers and simple fixes for failed prints. Describe the problem, add a photo, and get a prioritized
            plan to get your printer back on track.
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'center', mb: 2.5 }}>
            <Button component={RouterLink} to="/preview" variant="contained" size="large">
              Try It Free
            </Button>
            <Button component={RouterLink} to="/pricing" variant="outlined" size="large">
              View Pricing
            </Button>
          </Stack>
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={{ xs: 0.5, sm: 3 }}
            sx={{ justifyContent: 'center', color: 'text.secondary' }}
          >
            {['3 free credits / month', 'No sign-up or credit card required'].map((note) => (
              <Stack key={note} direction="row" spacing={0.75} sx={{ alignItems: 'center', justifyContent: 'center' }}>
                <CheckCircleRoundedIcon fontSize="small" color="success" />
                <Typography variant="body2">{note}</Typography>
              </Stack>
            ))}
          </Stack>
        </Container>
      </Box>

      <Container component="section" maxWidth="lg" sx={{ py: { xs: 6, md: 10 } }} aria-labelledby="features-heading">
        <Typography id="features-heading" variant="h3" component="h2" sx={{ textAlign: 'center', fontSize: { xs: '1.75rem', md: '2.5rem' }, mb: 1.5 }}>
          Everything you need to diagnose a failed print
        </Typography>
        <Typography color="text.secondary" sx={{ textAlign: 'center', maxWidth: 640, mx: 'auto', mb: { xs: 4, md: 6 } }}>
          From a stringy benchy to a warped build plate, Layerfix turns a vague symptom into concrete next steps.
        </Typography>
        <Box
          sx={{
            display: 'grid',
            gap: 3,
            gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', md: 'repeat(6, minmax(0, 1fr))' },
          }}
        >
          {FEATURES.map((f, i) => (
            <Card
              key={f.title}
              sx={{
                height: '100%',
                gridColumn: { sm: i === 4 ? 'span 2' : 'auto', md: i < 3 ? 'span 2' : 'span 3' },
              }}
            >
              <CardContent sx={{ p: 3 }}>
                <IconTile>{f.icon}</IconTile>
                <Typography variant="h6" component="h3" sx={{ mt: 2, mb: 1 }}>
                  {f.title}
                </Typography>
                <Typography color="text.secondary">{f.text}</Typography>
              </CardContent>
            </Card>
          ))}
        </Box>
      </Container>

      <Box component="section" sx={{ bgcolor: 'background.paper', borderTop: 1, borderBottom: 1, borderColor: 'divider' }}>
        <Container maxWidth="lg" sx={{ py: { xs: 6, md: 10 } }}>
          <Box sx={{ display: 'grid', gap: { xs: 4, md: 8 }, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, alignItems: 'center' }}>
            <Box>
              <Typography variant="h3" component="h2" sx={{ fontSize: { xs: '1.75rem', md: '2.5rem' }, mb: 2 }}>
                Why Choose Layerfix?
              </Typography>
              <Typography color="text.secondary" sx={{ fontSize: '1.1rem' }}>
                Skip the forum threads and trial-and-error. Get a focused plan built for your printer, your material and
                the symptoms you actually see.
              </Typography>
            </Box>
            <Stack spacing={1.5} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
              {BENEFITS.map((b) => (
                <Stack
                  key={b}
                  component="li"
                  direction="row"
                  spacing={1.5}
                  sx={{ alignItems: 'center', p: 2, borderRadius: 3, border: 1, borderColor: 'divider', bgcolor: 'background.default' }}
                >
                  <CheckCircleRoundedIcon color="success" />
                  <Typography sx={{ fontWeight: 600 }}>{b}</Typography>
                </Stack>
              ))}
            </Stack>
          </Box>
        </Container>
      </Box>

      <Container component="section" maxWidth="lg" sx={{ py: { xs: 6, md: 8 } }} aria-label="Highlights">
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' } }}>
          {BADGES.map((b) => (
            <Stack key={b.title} spacing={1} sx={{ alignItems: 'center', textAlign: 'center', p: 2.5, borderRadius: 4, border: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
              <Box sx={{ color: 'primary.main', display: 'flex' }}>{b.icon}</Box>
              <Typography sx={{ fontWeight: 700 }}>{b.title}</Typography>
              <Typography variant="body2" color="text.secondary">
                {b.text}
              </Typography>
            </Stack>
          ))}
        </Box>
      </Container>

      <Container component="section" maxWidth="md" sx={{ pb: { xs: 8, md: 12 } }}>
        <Box
          sx={{
            textAlign: 'center',
            borderRadius: 5,
            px: { xs: 3, md: 6 },
            py: { xs: 5, md: 7 },
            color: '#fff',
            background: 'linear-gradient(135deg, #ea580c 0%, #c2410c 55%, #9a3412 100%)',
          }}
        >
          <Typography variant="h4" component="h2" sx={{ mb: 1.5 }}>
            Ready to fix your next print?
          </Typography>
          <Typography sx={{ opacity: 0.9, mb: 4 }}>
            Try three analyses free this month. No account needed.
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'center' }}>
            <Button component={RouterLink} to="/preview" size="large" variant="contained" sx={{ bgcolor: '#fff', color: '#9a3412', '&:hover': { bgcolor: '#fff7ed' } }}>
              Get Started Free
            </Button>
            <Button component={RouterLink} to="/login" size="large" variant="outlined" sx={{ color: '#fff', borderColor: 'rgba(255,255,255,0.7)', '&:hover': { borderColor: '#fff', bgcolor: 'rgba(255,255,255,0.08)' } }}>
              Sign In
            </Button>
          </Stack>
        </Box>
      </Container>
    </>
  );
}
