// "Narrow It Down": the built-in engine's questions that separate look-alike causes, answered
// yes, no or not sure. An answer re-ranks the steps at once, costs no credit, and the card says
// what it changed.
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import HelpOutlineRounded from '@mui/icons-material/HelpOutlineRounded';
import type { NarrowAnswer, NarrowQuestion } from '../../api/client';

interface Props {
  questions: readonly NarrowQuestion[];
  answers: Readonly<Record<string, NarrowAnswer>>;
  busy: boolean;
  /** What the last answer did to the steps; empty before any answer in this visit. */
  outcome?: string;
  onAnswer: (id: string, answer: NarrowAnswer) => void;
}

const CHOICES: readonly { value: NarrowAnswer; label: string }[] = [
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
  { value: 'unsure', label: 'Not sure' },
];

export function NarrowItDown({ questions, answers, busy, outcome = '', onAnswer }: Props) {
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
            return (
              <Stack
                key={q.id}
                direction={{ xs: 'column', sm: 'row' }}
                spacing={1}
                sx={{ alignItems: { xs: 'stretch', sm: 'center' }, justifyContent: 'space-between' }}
                data-testid="narrow-question"
              >
                <Typography id={labelId} sx={{ fontWeight: 600 }}>
                  {q.text}
                </Typography>
                <ToggleButtonGroup
                  exclusive
                  size="small"
                  value={answers[q.id] ?? null}
                  disabled={busy}
                  aria-labelledby={labelId}
                  onChange={(_, v: NarrowAnswer | null) => {
                    if (v) onAnswer(q.id, v);
                  }}
                  sx={{ flexShrink: 0, '& .MuiToggleButton-root': { flex: { xs: 1, sm: 'none' }, px: 2, whiteSpace: 'nowrap' } }}
                >
                  {CHOICES.map((c) => (
                    <ToggleButton key={c.value} value={c.value}>
                      {c.label}
                    </ToggleButton>
                  ))}
                </ToggleButtonGroup>
              </Stack>
            );
          })}
        </Stack>
        <Typography
          role="status"
          variant="body2"
          data-testid="narrow-outcome"
          sx={{ mt: outcome ? 2 : 0, fontWeight: 600, color: 'primary.dark', '&:empty': { display: 'none' } }}
        >
          {outcome}
        </Typography>
      </CardContent>
    </Card>
  );
}
