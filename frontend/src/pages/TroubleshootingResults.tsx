// Placeholder; the anonymous troubleshooting flow (issue 3) replaces this file.
import { PagePlaceholder } from '../components/PagePlaceholder';

export default function TroubleshootingResults() {
  return <PagePlaceholder title="Troubleshooting Results" />;
}
