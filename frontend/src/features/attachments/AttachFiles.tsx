// "Attach a log or config": the maker drops or picks the printer's own text files, or pastes text
// (an M503 dump, the end of a log) under a name; each attachment shows as a chip with its name,
// size and what it was recognised as. The files are read here; they go with the analysis.
import { useId, useRef, useState, type ChangeEvent, type ClipboardEvent, type DragEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AttachFileRounded from '@mui/icons-material/AttachFileRounded';
import CancelRounded from '@mui/icons-material/CancelRounded';
import ContentPasteRounded from '@mui/icons-material/ContentPasteRounded';
import {
  addAttachments,
  ATTACH_ACCEPT,
  AttachmentError,
  formatBytes,
  makeAttachment,
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENTS,
  PASTE_NAMES,
  readAttachment,
  type Attachment,
} from './attachments';

interface Props {
  attachments: Attachment[];
  onChange: (list: Attachment[]) => void;
}

export function AttachFiles({ attachments, onChange }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const chooseButton = useRef<HTMLButtonElement>(null);
  const headingId = useId();
  const [messages, setMessages] = useState<string[]>([]);
  const [reading, setReading] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [paste, setPaste] = useState<{ open: boolean; text: string }>({ open: false, text: '' });
  const total = attachments.reduce((n, a) => n + a.bytes, 0);
  const full = attachments.length >= MAX_ATTACHMENTS;

  const addFiles = async (files: File[]) => {
    if (files.length === 0) return;
    setReading(true);
    const read: Attachment[] = [];
    const refused: string[] = [];
    for (const f of files) {
      try {
        read.push(await readAttachment(f));
      } catch (err) {
        refused.push(err instanceof AttachmentError ? err.message : `Could not read ${f.name}.`);
      }
    }
    const added = addAttachments(attachments, read);
    setMessages([...refused, ...added.refused]);
    if (added.list.length !== attachments.length) onChange(added.list);
    setReading(false);
  };

  const remove = (i: number) => {
    onChange(attachments.filter((_, j) => j !== i));
    setMessages([]);
    chooseButton.current?.focus();
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    void addFiles(Array.from(e.dataTransfer.files));
  };

  // Pasting into the section: files are added, text opens the paste dialog with it.
  const onPaste = (e: ClipboardEvent) => {
    if (paste.open) return;
    const files = Array.from(e.clipboardData.files);
    const text = e.clipboardData.getData('text/plain');
    if (files.length === 0 && !text) return;
    e.preventDefault();
    if (files.length > 0) void addFiles(files);
    else setPaste({ open: true, text });
  };

  return (
    <Box
      component="section"
      aria-labelledby={headingId}
      data-testid="attach-files"
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      onPaste={onPaste}
      sx={{
        border: 1,
        borderStyle: 'dashed',
        borderColor: dragging ? 'primary.main' : 'divider',
        bgcolor: dragging ? 'rgba(234, 88, 12, 0.06)' : undefined,
        borderRadius: 2,
        p: 2,
      }}
    >
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { xs: 'stretch', sm: 'center' } }}>
        <Box sx={{ flexGrow: 1 }}>
          <Typography id={headingId} component="h2" sx={{ fontWeight: 600, fontSize: 16 }}>
            Attach a log or config
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            Drop or pick klippy.log, printer.cfg, Configuration.h, config.g or a serial log, or paste an M503 dump: up to{' '}
            {MAX_ATTACHMENTS} files, {MAX_ATTACHMENT_BYTES / 1024} KB of text in all. Passwords, API keys, tokens and Wi-Fi or MQTT
            credentials in them are removed before anything is analysed or saved.
          </Typography>
        </Box>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ flexShrink: 0 }}>
          <Button
            ref={chooseButton}
            variant="outlined"
            startIcon={<AttachFileRounded />}
            onClick={() => input.current?.click()}
            disabled={reading || full}
            sx={{ whiteSpace: 'nowrap' }}
          >
            {reading ? 'Reading…' : 'Choose Files'}
          </Button>
          <Button
            variant="outlined"
            startIcon={<ContentPasteRounded />}
            onClick={() => setPaste({ open: true, text: '' })}
            disabled={full}
            sx={{ whiteSpace: 'nowrap' }}
          >
            Paste Text
          </Button>
        </Stack>
        <input
          ref={input}
          type="file"
          hidden
          multiple
          accept={ATTACH_ACCEPT}
          data-testid="attach-input"
          aria-label="Choose log or config files"
          onChange={(e) => {
            const files = Array.from(e.target.files ?? []);
            e.target.value = '';
            void addFiles(files);
          }}
        />
      </Stack>
      {attachments.length > 0 && (
        <Box sx={{ mt: 1.5 }}>
          <Stack component="ul" direction="row" aria-label="Attached files" sx={{ flexWrap: 'wrap', gap: 1, listStyle: 'none', p: 0, m: 0 }}>
            {attachments.map((a, i) => (
              <Box component="li" key={`${a.name}-${i}`} sx={{ maxWidth: '100%' }}>
                <Chip
                  icon={<AttachFileRounded />}
                  label={`${a.name} · ${formatBytes(a.bytes)} · ${a.label}`}
                  onDelete={() => remove(i)}
                  deleteIcon={<CancelRounded aria-label={`Remove ${a.name}`} aria-hidden={false} role="button" />}
                  // The whole label wraps on a phone rather than losing the kind to an ellipsis.
                  sx={{ maxWidth: '100%', height: 'auto', py: 0.5, '& .MuiChip-label': { whiteSpace: 'normal', overflowWrap: 'anywhere' } }}
                  data-testid="attachment-chip"
                />
              </Box>
            ))}
          </Stack>
          <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block', mt: 0.75 }}>
            {attachments.length} of {MAX_ATTACHMENTS} files, {formatBytes(total)} of {MAX_ATTACHMENT_BYTES / 1024} KB
          </Typography>
        </Box>
      )}
      {messages.length > 0 && (
        <Alert severity="warning" sx={{ mt: 1.5 }} onClose={() => setMessages([])} role="alert">
          {messages.map((m) => (
            <div key={m}>{m}</div>
          ))}
        </Alert>
      )}
      <PasteDialog
        open={paste.open}
        initialText={paste.text}
        onClose={() => setPaste({ open: false, text: '' })}
        onAttach={(a) => {
          const added = addAttachments(attachments, [a]);
          if (added.refused.length > 0) return added.refused[0];
          onChange(added.list);
          setMessages([]);
          setPaste({ open: false, text: '' });
          return null;
        }}
      />
    </Box>
  );
}

interface PasteProps {
  open: boolean;
  initialText: string;
  onClose: () => void;
  /** Adds the attachment; returns why it was refused, or null. */
  onAttach: (a: Attachment) => string | null;
}

// PasteDialog takes pasted text (M503 output, the end of a log) and the file name it goes under.
function PasteDialog({ open, initialText, onClose, onAttach }: PasteProps) {
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="paste-attachment-title">
      {open && <PasteForm initialText={initialText} onClose={onClose} onAttach={onAttach} />}
    </Dialog>
  );
}

function PasteForm({ initialText, onClose, onAttach }: Omit<PasteProps, 'open'>) {
  const [name, setName] = useState('M503.txt');
  const [text, setText] = useState(initialText);
  const [error, setError] = useState('');
  // edit changes a field and clears the message about it.
  const edit = (setter: (v: string) => void) => (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    setter(e.target.value);
    setError('');
  };

  const attach = () => {
    try {
      const refused = onAttach(makeAttachment(name, text));
      if (refused) setError(refused);
    } catch (err) {
      setError(err instanceof AttachmentError ? err.message : 'This text cannot be attached.');
    }
  };

  return (
    <>
      <DialogTitle id="paste-attachment-title">Paste a log or settings</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label="Text"
            value={text}
            onChange={edit(setText)}
            multiline
            minRows={6}
            maxRows={14}
            autoFocus
            fullWidth
            placeholder={'echo:  M92 X80.00 Y80.00 Z400.00 E93.00\necho:  M301 P21.73 I1.54 D76.55'}
            slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'ui-monospace, Menlo, Consolas, monospace', fontSize: 13 } } }}
          />
          <TextField
            label="File name"
            value={name}
            onChange={edit(setName)}
            fullWidth
            autoComplete="off"
          />
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.75 }} role="group" aria-label="Common file names">
            {PASTE_NAMES.map((n) => (
              <Chip key={n} label={n} size="small" variant={n === name ? 'filled' : 'outlined'} onClick={() => setName(n)} />
            ))}
          </Stack>
          {error && (
            <Alert severity="warning" role="alert">
              {error}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit">
          Cancel
        </Button>
        <Button onClick={attach} variant="contained" disabled={!text.trim()}>
          Attach
        </Button>
      </DialogActions>
    </>
  );
}
