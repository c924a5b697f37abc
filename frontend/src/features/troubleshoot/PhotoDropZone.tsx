import { useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddPhotoAlternateRounded from '@mui/icons-material/AddPhotoAlternateRounded';
import CancelRounded from '@mui/icons-material/CancelRounded';
import { MAX_PHOTOS, selectPhotos } from './images';

interface Props {
  files: File[];
  onChange: (files: File[]) => void;
  error?: string;
}

function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

// PhotoDropZone takes up to five photos by drop or by browsing; every chosen photo is a removable chip.
export function PhotoDropZone({ files, onChange, error }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [rejected, setRejected] = useState<string[]>([]);
  const previews = useMemo(
    () => files.map((f) => (typeof URL.createObjectURL === 'function' ? URL.createObjectURL(f) : '')),
    [files],
  );
  useEffect(() => () => previews.forEach((u) => u && URL.revokeObjectURL(u)), [previews]);

  const add = (list: FileList | null) => {
    if (!list) return;
    const { accepted, rejected: refused } = selectPhotos(files, Array.from(list));
    setRejected(refused);
    if (accepted.length > 0) onChange([...files, ...accepted]);
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    add(e.dataTransfer.files);
  };

  const full = files.length >= MAX_PHOTOS;

  return (
    <Box>
      <Typography component="div" variant="subtitle2" sx={{ mb: 1 }}>
        Photos{' '}
        <Typography component="span" variant="body2" sx={{ color: 'text.secondary' }}>
          (optional, up to {MAX_PHOTOS})
        </Typography>
      </Typography>
      <ButtonBase
        data-testid="photo-drop-zone"
        disabled={full}
        onClick={() => input.current?.click()}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        sx={{
          width: '100%',
          display: 'flex',
          flexDirection: 'column',
          gap: 0.5,
          py: 3,
          px: 2,
          borderRadius: 2,
          border: '2px dashed',
          borderColor: dragging ? 'primary.main' : error ? 'error.main' : 'divider',
          bgcolor: dragging ? 'rgba(234, 88, 12, 0.06)' : 'background.default',
          color: 'text.secondary',
          opacity: full ? 0.6 : 1,
          '&:hover': { borderColor: 'primary.light' },
          '&.Mui-focusVisible': { outline: '2px solid', outlineColor: 'primary.light', outlineOffset: 2 },
        }}
      >
        <AddPhotoAlternateRounded sx={{ fontSize: 36, color: 'primary.main' }} />
        <Typography variant="body2" sx={{ fontWeight: 600, color: 'text.primary' }}>
          {full ? 'Photo limit reached' : 'Drop photos here or click to browse'}
        </Typography>
        <Typography variant="caption">PNG, JPG up to 10MB each</Typography>
      </ButtonBase>
      <input
        ref={input}
        type="file"
        accept="image/*"
        multiple
        hidden
        data-testid="photo-input"
        onChange={(e) => {
          add(e.target.files);
          e.target.value = '';
        }}
      />
      {files.length > 0 && (
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mt: 1.5 }}>
          {files.map((f, i) => (
            <Chip
              key={`${f.name}-${i}`}
              avatar={<Avatar alt="" src={previews[i] || undefined} variant="rounded" />}
              label={`${f.name} (${formatSize(f.size)})`}
              onDelete={() => onChange(files.filter((_, j) => j !== i))}
              deleteIcon={<CancelRounded aria-label={`Remove ${f.name}`} aria-hidden={false} role="button" />}
              sx={{ maxWidth: '100%' }}
            />
          ))}
        </Stack>
      )}
      {(rejected.length > 0 || error) && (
        <Alert severity="warning" sx={{ mt: 1.5 }} onClose={rejected.length > 0 ? () => setRejected([]) : undefined}>
          {error && <div>{error}</div>}
          {rejected.map((r) => (
            <div key={r}>{r}</div>
          ))}
        </Alert>
      )}
    </Box>
  );
}
