import type { ReactElement } from 'react';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import FormHelperText from '@mui/material/FormHelperText';
import Typography from '@mui/material/Typography';
import BuildRounded from '@mui/icons-material/BuildRounded';
import FoundationRounded from '@mui/icons-material/FoundationRounded';
import GestureRounded from '@mui/icons-material/GestureRounded';
import HelpOutlineRounded from '@mui/icons-material/HelpOutlineRounded';
import LayersRounded from '@mui/icons-material/LayersRounded';
import TextureRounded from '@mui/icons-material/TextureRounded';
import ThermostatRounded from '@mui/icons-material/ThermostatRounded';
import TuneRounded from '@mui/icons-material/TuneRounded';
import VerticalAlignBottomRounded from '@mui/icons-material/VerticalAlignBottomRounded';
import WaterDropRounded from '@mui/icons-material/WaterDropRounded';
import { CATEGORIES } from './categories';

const ICONS: Record<string, ReactElement> = {
  'first-layer': <LayersRounded />,
  'bed-adhesion': <VerticalAlignBottomRounded />,
  stringing: <GestureRounded />,
  'layer-quality': <TextureRounded />,
  'support-issues': <FoundationRounded />,
  'extrusion-issues': <WaterDropRounded />,
  'mechanical-problems': <BuildRounded />,
  'heating-issues': <ThermostatRounded />,
  calibration: <TuneRounded />,
  other: <HelpOutlineRounded />,
};

interface Props {
  value: string;
  onChange: (value: string) => void;
  error?: string;
}

// CategoryTiles is a radio group of the ten issue categories, drawn as tiles.
export function CategoryTiles({ value, onChange, error }: Props) {
  return (
    <Box>
      <Typography id="category-label" component="div" variant="subtitle2" sx={{ mb: 1 }}>
        Issue Category
      </Typography>
      <Box
        role="radiogroup"
        aria-labelledby="category-label"
        sx={{
          display: 'grid',
          gap: 1,
          gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(3, minmax(0, 1fr))', md: 'repeat(5, minmax(0, 1fr))' },
        }}
      >
        {CATEGORIES.map((c) => {
          const selected = c.value === value;
          return (
            <ButtonBase
              key={c.value}
              role="radio"
              aria-checked={selected}
              onClick={() => onChange(c.value)}
              sx={{
                display: 'flex',
                flexDirection: { xs: 'row', sm: 'column' },
                alignItems: 'center',
                justifyContent: { xs: 'flex-start', sm: 'center' },
                gap: { xs: 1, sm: 0.75 },
                minHeight: { xs: 60, sm: 88 },
                px: { xs: 1.25, sm: 1 },
                py: { xs: 1, sm: 1.5 },
                borderRadius: 2,
                border: 2,
                borderColor: selected ? 'primary.main' : 'divider',
                bgcolor: selected ? 'rgba(234, 88, 12, 0.08)' : 'background.paper',
                color: selected ? 'primary.main' : 'text.secondary',
                transition: 'border-color 120ms, background-color 120ms',
                '&:hover': { borderColor: selected ? 'primary.main' : 'text.disabled' },
                '&.Mui-focusVisible': { outline: '2px solid', outlineColor: 'primary.light', outlineOffset: 2 },
              }}
            >
              {ICONS[c.value]}
              <Typography
                variant="body2"
                sx={{
                  fontWeight: 600,
                  lineHeight: 1.25,
                  textAlign: { xs: 'left', sm: 'center' },
                  fontSize: { xs: 13, sm: 14 },
                  color: selected ? 'text.primary' : 'inherit',
                }}
              >
                {c.label}
              </Typography>
            </ButtonBase>
          );
        })}
      </Box>
      {error && <FormHelperText error>{error}</FormHelperText>}
    </Box>
  );
}
