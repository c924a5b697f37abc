import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import CheckRounded from '@mui/icons-material/CheckRounded';
import ContentCopyRounded from '@mui/icons-material/ContentCopyRounded';
import { useToast } from '../../components/Toast';
import { copyText } from './clipboard';
import { COPY_FAILED } from './errors';

export const COPIED_MS = 2000;

// ShareBanner shows a created share link with a Copy button; 'Copied' shows for 2 seconds.
export function ShareBanner({ link }: { link: string }) {
  const { toast } = useToast();
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(t);
  }, [copied]);

  const copy = async () => {
    try {
      await copyText(link);
      setCopied(true);
    } catch {
      toast({ title: 'Error', description: COPY_FAILED, variant: 'destructive' });
    }
  };

  return (
    <Alert severity="success" icon={false} data-testid="share-banner" sx={{ '& .MuiAlert-message': { width: '100%' } }}>
      <AlertTitle>Share link ready</AlertTitle>
      Anyone with this link can view the troubleshooting guide.
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mt: 1.5 }}>
        <TextField
          value={link}
          size="small"
          fullWidth
          aria-label="Share link"
          slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'share-link' } }}
          onFocus={(e) => e.target.select()}
          sx={{ bgcolor: 'background.paper', borderRadius: 1 }}
        />
        <Button
          variant="contained"
          color="success"
          onClick={copy}
          startIcon={copied ? <CheckRounded /> : <ContentCopyRounded />}
          sx={{ flexShrink: 0, minWidth: 110 }}
        >
          {copied ? 'Copied!' : 'Copy'}
        </Button>
      </Stack>
    </Alert>
  );
}
