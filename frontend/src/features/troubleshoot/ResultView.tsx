import { useState, type ReactNode, type Ref } from 'react';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import Dialog from '@mui/material/Dialog';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ArrowUpwardRounded from '@mui/icons-material/ArrowUpwardRounded';
import CloseRounded from '@mui/icons-material/CloseRounded';
import ExpandMoreRounded from '@mui/icons-material/ExpandMoreRounded';
import InsightsRounded from '@mui/icons-material/InsightsRounded';
import TaskAltRounded from '@mui/icons-material/TaskAltRounded';
import TipsAndUpdatesRounded from '@mui/icons-material/TipsAndUpdatesRounded';
import type { TroubleshootingResult } from '../../api/client';
import { categoryLabel } from './categories';
import { priorityColor, priorityLabel } from './priority';
import type { IssueDetails } from './session';
import { AttachmentList } from '../attachments/AttachmentList';

interface SectionProps {
  icon: ReactNode;
  title: string;
  children: ReactNode;
  action?: ReactNode;
  /** The heading, for moving the focus to it (it is not in the tab order). */
  headingRef?: Ref<HTMLHeadingElement>;
}

function Section({ icon, title, children, action, headingRef }: SectionProps) {
  return (
    <Card component="section" aria-label={title}>
      <CardContent sx={{ p: { xs: 1.75, sm: 3 }, '&:last-child': { pb: { xs: 2, sm: 3 } } }}>
        <Stack direction="row" spacing={1.25} sx={{ alignItems: 'center', mb: 2 }}>
          <Box sx={{ color: 'primary.main', display: 'flex' }}>{icon}</Box>
          <Typography
            variant="h6"
            component="h2"
            ref={headingRef}
            tabIndex={headingRef ? -1 : undefined}
            sx={{ flexGrow: 1, fontSize: { xs: 18, sm: 20 }, lineHeight: 1.3, '&:focus': { outline: 'none' } }}
          >
            {title}
          </Typography>
          {action}
        </Stack>
        {children}
      </CardContent>
    </Card>
  );
}

export function IssueAnalysis({ summary, headingRef }: { summary: string; headingRef?: Ref<HTMLHeadingElement> }) {
  return (
    <Section icon={<InsightsRounded />} title="Issue Analysis" headingRef={headingRef}>
      <Typography sx={{ whiteSpace: 'pre-line', lineHeight: 1.7 }}>{summary}</Typography>
    </Section>
  );
}

interface StepsProps {
  steps: TroubleshootingResult['steps'];
  /** Indices of ticked steps; without onToggle the list is read-only. */
  checked?: readonly number[];
  onToggle?: (index: number) => void;
  /** Titles of the steps the last narrow-it-down answer moved up. */
  movedUp?: readonly string[];
}

export function RecommendedSolutions({ steps, checked = [], onToggle, movedUp = [] }: StepsProps) {
  const progress = onToggle && steps.length > 0 ? `${checked.length}/${steps.length} done` : undefined;
  return (
    <Section
      icon={<TaskAltRounded />}
      title="Recommended Solutions"
      action={progress && <Chip size="small" label={progress} color={checked.length === steps.length ? 'success' : 'default'} />}
    >
      <Stack component="ol" spacing={1.5} sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {steps.map((step, i) => {
          const done = checked.includes(i);
          const moved = movedUp.includes(step.title);
          const titleId = `step-${i}-title`;
          return (
            <Box
              component="li"
              key={i}
              data-testid="solution-step"
              sx={{
                display: 'flex',
                gap: { xs: 1, sm: 1.5 },
                p: { xs: 1.25, sm: 2 },
                borderRadius: 2,
                border: 1,
                borderColor: done ? 'success.main' : moved ? 'primary.main' : 'divider',
                bgcolor: done ? 'rgba(22, 163, 74, 0.06)' : 'background.paper',
                transition: 'background-color 120ms, border-color 120ms',
              }}
            >
              {onToggle ? (
                <Checkbox
                  checked={done}
                  onChange={() => onToggle(i)}
                  color="success"
                  slotProps={{ input: { 'aria-labelledby': titleId } }}
                  sx={{ p: 0.5, alignSelf: 'flex-start' }}
                />
              ) : (
                <Box
                  sx={{
                    flexShrink: 0,
                    width: 28,
                    height: 28,
                    borderRadius: '50%',
                    display: 'grid',
                    placeItems: 'center',
                    bgcolor: 'action.selected',
                    fontWeight: 700,
                    fontSize: 14,
                  }}
                >
                  {i + 1}
                </Box>
              )}
              <Box sx={{ minWidth: 0, flexGrow: 1 }}>
                <Stack
                  direction={{ xs: 'column', sm: 'row' }}
                  spacing={{ xs: 0.5, sm: 1 }}
                  sx={{ alignItems: { xs: 'flex-start', sm: 'center' }, mb: 0.5 }}
                >
                  {/* A ticked step stays readable: the maker is often still following it. */}
                  <Typography id={titleId} component="h3" sx={{ fontWeight: 700, flexGrow: 1, overflowWrap: 'anywhere' }}>
                    {step.title}
                  </Typography>
                  {moved && (
                    <Chip
                      size="small"
                      color="primary"
                      variant="outlined"
                      icon={<ArrowUpwardRounded />}
                      label="Moved up"
                      data-testid="moved-up"
                    />
                  )}
                  <Chip
                    size="small"
                    label={priorityLabel(step.priority)}
                    color={priorityColor(step.priority)}
                    variant={step.priority === 'high' ? 'filled' : 'outlined'}
                    data-testid="priority-label"
                  />
                </Stack>
                <Typography
                  variant="body2"
                  sx={{ color: 'text.secondary', whiteSpace: 'pre-line', lineHeight: 1.65, overflowWrap: 'anywhere' }}
                >
                  {step.description}
                </Typography>
              </Box>
            </Box>
          );
        })}
      </Stack>
    </Section>
  );
}

export function AdditionalTips({ tips }: { tips: readonly string[] }) {
  if (tips.length === 0) return null;
  return (
    <Section icon={<TipsAndUpdatesRounded />} title="Additional Tips & Best Practices">
      <Stack component="ul" spacing={1} sx={{ m: 0, pl: 2.5 }}>
        {tips.map((tip, i) => (
          <Typography component="li" key={i} variant="body2" sx={{ lineHeight: 1.65 }}>
            {tip}
          </Typography>
        ))}
      </Stack>
    </Section>
  );
}

function detailRows(issue: IssueDetails): [string, string][] {
  const rows: [string, string][] = [];
  const printer = issue.printerName ? `${issue.printerName}${issue.printerBrand ? ` (${issue.printerBrand})` : ''}` : issue.printerBrand;
  if (printer) rows.push(['Printer', printer]);
  rows.push(['Category', categoryLabel(issue.category)]);
  if (issue.diagnosedCategory && issue.diagnosedCategory !== issue.category) rows.push(['Diagnosed', categoryLabel(issue.diagnosedCategory)]);
  if (issue.material) rows.push(['Material', issue.material]);
  const num = (label: string, v: number | null | undefined, unit: string) => {
    if (v !== null && v !== undefined) rows.push([label, `${v}${unit}`]);
  };
  num('Nozzle Temperature', issue.nozzleTemp, ' °C');
  num('Bed Temperature', issue.bedTemp, ' °C');
  num('Layer Height', issue.layerHeight, ' mm');
  num('Print Speed', issue.printSpeed, ' mm/s');
  num('Infill', issue.infill, ' %');
  return rows;
}

export function OriginalIssueDetails({ issue }: { issue: IssueDetails }) {
  const [open, setOpen] = useState(false);
  const [enlarged, setEnlarged] = useState<string | null>(null);
  const photos = issue.photos ?? [];
  return (
    <Card component="section" aria-label="Original Issue Details">
      <ButtonBase
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        aria-controls="original-issue-details"
        sx={{ width: '100%', justifyContent: 'space-between', px: { xs: 2, sm: 3 }, py: 2, textAlign: 'left' }}
      >
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700 }}>
          Original Issue Details
        </Typography>
        <ExpandMoreRounded sx={{ transform: open ? 'rotate(180deg)' : 'none', transition: 'transform 150ms' }} />
      </ButtonBase>
      <Collapse in={open} id="original-issue-details">
        <Box sx={{ px: { xs: 2, sm: 3 }, pb: 3 }}>
          <Box
            component="dl"
            sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.75, m: 0, mb: 2 }}
          >
            {detailRows(issue).map(([k, v]) => (
              <Box key={k} sx={{ display: 'contents' }}>
                <Typography component="dt" variant="body2" sx={{ color: 'text.secondary' }}>
                  {k}
                </Typography>
                <Typography component="dd" variant="body2" sx={{ m: 0, fontWeight: 600, overflowWrap: 'anywhere' }}>
                  {v}
                </Typography>
              </Box>
            ))}
          </Box>
          <Typography variant="body2" sx={{ color: 'text.secondary', mb: 0.5 }}>
            Description
          </Typography>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere', mb: photos.length ? 2 : 0 }}>
            {issue.description}
          </Typography>
          {photos.length > 0 && (
            <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
              {photos.map((src, i) => (
                <ButtonBase
                  key={i}
                  onClick={() => setEnlarged(src)}
                  aria-label={`Enlarge photo ${i + 1}`}
                  sx={{ borderRadius: 2, overflow: 'hidden', border: 1, borderColor: 'divider' }}
                >
                  <Box component="img" src={src} alt={`Photo ${i + 1}`} sx={{ width: 96, height: 96, objectFit: 'cover', display: 'block' }} />
                </ButtonBase>
              ))}
            </Stack>
          )}
          <AttachmentList issue={issue} />
        </Box>
      </Collapse>
      <Dialog open={enlarged !== null} onClose={() => setEnlarged(null)} maxWidth="md" aria-label="Enlarged photo">
        <IconButton
          aria-label="Close"
          onClick={() => setEnlarged(null)}
          sx={{ position: 'absolute', top: 8, right: 8, bgcolor: 'rgba(0,0,0,0.5)', color: '#fff', '&:hover': { bgcolor: 'rgba(0,0,0,0.7)' } }}
        >
          <CloseRounded />
        </IconButton>
        {enlarged && <Box component="img" src={enlarged} alt="Enlarged photo" sx={{ display: 'block', maxWidth: '100%', maxHeight: '85vh' }} />}
      </Dialog>
    </Card>
  );
}
