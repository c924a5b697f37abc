import { useState } from 'react';
import { shareResults, resolveUrl, type TroubleshootingResult } from '../../api/client';
import { useToast } from '../../components/Toast';
import { copyText } from './clipboard';
import { SHARE_FAILED } from './errors';
import { rememberSharedIssue } from './sharedLocal';
import type { IssueDetails } from './session';

// shareUrl is the public link of a shared guide: this origin, the base path, /share/{shareId}.
export function shareUrl(shareId: string): string {
  return `${window.location.origin}${resolveUrl(`/share/${encodeURIComponent(shareId)}`)}`;
}

// useShareLink creates a share link for a result and tries to copy it at once.
export function useShareLink(result: TroubleshootingResult | null, issue: IssueDetails | null) {
  const { toast } = useToast();
  const [link, setLink] = useState<string | null>(null);
  const [sharing, setSharing] = useState(false);

  const share = async () => {
    if (!result || sharing) return;
    setSharing(true);
    let url: string;
    try {
      const { shareId } = await shareResults(result);
      url = shareUrl(shareId);
      if (issue) rememberSharedIssue(shareId, issue);
      setLink(url);
    } catch {
      toast({ title: 'Error', description: SHARE_FAILED, variant: 'destructive' });
      return;
    } finally {
      setSharing(false);
    }
    try {
      await copyText(url);
      toast({ title: 'Share link created!', description: 'The link is copied to your clipboard.', variant: 'success' });
    } catch {
      toast({ title: 'Share link created!', description: 'Please copy the link below manually.', variant: 'info' });
    }
  };

  return { link, sharing, share };
}
