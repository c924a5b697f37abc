// "Narrow It Down": the built-in engine's yes/no questions that separate look-alike causes. An
// answer re-ranks the steps at once and costs no credit.
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import HelpOutlineRounded from '@mui/icons-material/HelpOutlineRounded';
import type { NarrowQuestion } from '../../api/client';

interface Props {
  questions: readonly NarrowQuestion[];
  answers: Readonly<Record<string, boolean>>;
  busy: boolean;
  onAnswer: (id: string, answer: boolean) => void;
}

export function NarrowItDown({ questions, answers, busy, onAnswer }: Props) {
  if (questions.length === 0) return null;
  const open = questions.some((q) => !(q.id in answers));
  return (
    <Card component="section" aria-label="Narrow It Down" variant="outlined" sx={{ borderColor: 'primary.main' }}>
      <CardContent sx={{ p: { xs: 1.75, sm: 3 }, '&:last-child': { pb: { xs: 2, sm: 3 } } }}>
        <Stack direction="row" spacing={1.25} sx={{ alignItems: 'center', mb: 1 }}>
          <Box sx={{ color: 'primary.main', display: 'flex' }}>
            <HelpOutlineRounded />
          </Box>
          <Typography variant="h6" component="h2" sx={{ flexGrow: 1, fontSize: { xs: 18, sm: 20 }, lineHeight: 1.3 }}>
            Narrow It Down
          </Typography>
          {busy && <CircularProgress size={20} aria-label="Updating the steps" />}
        </Stack>
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
          {open
            ? 'A few causes fit your description. Answer to put the likeliest fix first; it does not use a credit.'
            : 'The steps are ordered by your answers. Change an answer to re-rank them.'}
        </Typography>
        <Stack spacing={1.5}>
          {questions.map((q) => {
            const labelId = `question-${q.id}`;
            const value = q.id in answers ? (answers[q.id] ? 'yes' : 'no') : null;
            return (
              <Stack
                key={q.id}
                direction={{ xs: 'column', sm: 'row' }}
                spacing={1}
                sx={{ alignItems: { xs: 'flex-start', sm: 'center' }, justifyContent: 'space-between' }}
                data-testid="narrow-question"
              >
                <Typography id={labelId} sx={{ fontWeight: 600 }}>
                  {q.text}
                </Typography>
                <ToggleButtonGroup
                  exclusive
                  size="small"
                  value={value}
                  disabled={busy}
                  aria-labelledby={labelId}
                  onChange={(_, v: 'yes' | 'no' | null) => {
                    if (v) onAnswer(q.id, v === 'yes');
                  }}
                  sx={{ flexShrink: 0 }}
                >
                  <ToggleButton value="yes" sx={{ px: 2.5 }}>
                    Yes
                  </ToggleButton>
                  <ToggleButton value="no" sx={{ px: 2.5 }}>
                    No
                  </ToggleButton>
                </ToggleButtonGroup>
              </Stack>
            );
          })}
        </Stack>
      </CardContent>
    </Card>
  );
}
