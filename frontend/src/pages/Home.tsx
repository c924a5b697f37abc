// Placeholder; the anonymous troubleshooting flow (issue 3) replaces this file.
import { PagePlaceholder } from '../components/PagePlaceholder';

export default function Home() {
  return <PagePlaceholder title="AI-Powered 3D Printing Troubleshooter" />;
}
