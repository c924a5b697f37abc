import { useState } from 'react';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import DownloadRounded from '@mui/icons-material/DownloadRounded';
import { exportIssues, type ExportFormat } from '../../api/client';
import { useToast } from '../../components/Toast';
import { saveFile } from '../../download';

// ExportButton downloads the whole issue log as CSV or JSON (GET /api/issues/export).
export function ExportButton({ disabled }: { disabled?: boolean }) {
  const { toast } = useToast();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [busy, setBusy] = useState(false);

  const download = async (format: ExportFormat) => {
    setAnchor(null);
    setBusy(true);
    try {
      const { blob, filename } = await exportIssues(format);
      saveFile(blob, filename);
    } catch {
      toast({ title: 'Error', description: 'Failed to export issues. Please try again.', variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        variant="outlined"
        startIcon={<DownloadRounded />}
        onClick={(e) => setAnchor(e.currentTarget)}
        disabled={disabled || busy}
        aria-haspopup="menu"
        aria-controls={anchor ? 'export-menu' : undefined}
      >
        Export
      </Button>
      <Menu id="export-menu" anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => download('csv')}>Download CSV</MenuItem>
        <MenuItem onClick={() => download('json')}>Download JSON</MenuItem>
      </Menu>
    </>
  );
}
