// Placeholder; the anonymous troubleshooting flow (issue 3) replaces this file.
import { PagePlaceholder } from '../components/PagePlaceholder';

export default function SharedGuide() {
  return <PagePlaceholder title="Shared Troubleshooting Guide" />;
}
