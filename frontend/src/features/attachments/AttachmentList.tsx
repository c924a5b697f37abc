// The files an analysis was given, under 'Original Issue Details': name, size and kind of each,
// and a dialog that shows the text and downloads it. A saved issue's text comes from the server
// (owner only, secrets removed); an anonymous analysis keeps its files in this tab only.
import { useState } from 'react';
import useSWR from 'swr';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DescriptionRounded from '@mui/icons-material/DescriptionRounded';
import { getAttachmentText, getIssue, type AttachmentInfo } from '../../api/client';
import type { IssueDetails } from '../troubleshoot/session';
import { byteLength, detectKind, formatBytes, kindLabel } from './attachments';

interface Shown extends AttachmentInfo {
  /** The text when this tab has it (anonymous analysis). */
  text?: string;
}

// shownAttachments lists what an issue carries: the anonymous files themselves, or a saved issue's
// names, kinds and sizes.
export function shownAttachments(issue: IssueDetails, fetched?: AttachmentInfo[]): Shown[] {
  if (issue.attachments?.length) {
    return issue.attachments.map((a) => ({ name: a.name, text: a.text, bytes: byteLength(a.text), ...detectKind(a.name, a.text) }));
  }
  return (issue.attachmentInfo ?? fetched ?? []).map((a) => ({ ...a, label: a.label || kindLabel(a.kind) }));
}

export function AttachmentList({ issue }: { issue: IssueDetails }) {
  // An issue opened from a list knows only how many files it has: the issue itself names them.
  const needsFetch = Boolean(issue.id && (issue.attachmentCount ?? 0) > 0 && !issue.attachmentInfo?.length && !issue.attachments?.length);
  const { data } = useSWR(needsFetch ? `/api/issues/${issue.id}#attachments` : null, () => getIssue(issue.id!), {
    shouldRetryOnError: false,
    revalidateOnFocus: false,
  });
  const list = shownAttachments(issue, data?.attachments);
  const [open, setOpen] = useState<number | null>(null);
  if (list.length === 0) return null;
  return (
    <Box sx={{ mt: 2 }} data-testid="issue-attachments">
      <Typography variant="body2" component="h3" sx={{ color: 'text.secondary', mb: 0.5 }}>
        Attached files
      </Typography>
      <Stack component="ul" spacing={0.75} sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {list.map((a, i) => (
          <Stack
            component="li"
            key={`${a.name}-${i}`}
            direction="row"
            spacing={1}
            sx={{ alignItems: 'center', border: 1, borderColor: 'divider', borderRadius: 2, px: 1.5, py: 0.75 }}
          >
            <DescriptionRounded fontSize="small" sx={{ color: 'primary.main' }} />
            <Box sx={{ flexGrow: 1, minWidth: 0 }}>
              <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                {a.name}
              </Typography>
              <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                {a.label} · {formatBytes(a.bytes)}
              </Typography>
            </Box>
            {(a.text !== undefined || issue.id) && (
              <Button size="small" onClick={() => setOpen(i)} aria-label={`Open ${a.name}`}>
                Open
              </Button>
            )}
          </Stack>
        ))}
      </Stack>
      {open !== null && list[open] && (
        <AttachmentDialog attachment={list[open]} issueId={issue.id} index={open} onClose={() => setOpen(null)} />
      )}
    </Box>
  );
}

function AttachmentDialog({ attachment, issueId, index, onClose }: { attachment: Shown; issueId?: number; index: number; onClose: () => void }) {
  const local = attachment.text;
  const { data, error, isLoading } = useSWR(
    local === undefined && issueId ? `/api/issues/${issueId}/attachments/${index}` : null,
    () => getAttachmentText(issueId!, index),
    { shouldRetryOnError: false, revalidateOnFocus: false },
  );
  const text = local ?? data;

  const download = () => {
    if (text === undefined) return;
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = attachment.name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="attachment-dialog-title">
      <DialogTitle id="attachment-dialog-title" sx={{ overflowWrap: 'anywhere' }}>
        {attachment.name}
        <Typography variant="body2" component="span" sx={{ display: 'block', color: 'text.secondary' }}>
          {attachment.label} · {formatBytes(attachment.bytes)}
        </Typography>
      </DialogTitle>
      <DialogContent dividers>
        {isLoading && <CircularProgress size={28} aria-label="Loading the file" />}
        {error && <Alert severity="warning">This file could not be loaded. Please try again.</Alert>}
        {text !== undefined && (
          <Box
            component="pre"
            tabIndex={0}
            aria-label={`Text of ${attachment.name}`}
            sx={{ m: 0, fontSize: 12, fontFamily: 'ui-monospace, Menlo, Consolas, monospace', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxHeight: '60vh', overflow: 'auto' }}
          >
            {text}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit">
          Close
        </Button>
        <Button onClick={download} variant="contained" disabled={text === undefined}>
          Download
        </Button>
      </DialogActions>
    </Dialog>
  );
}
