import { config } from '../config';
import { ContactLine } from '../components/ContactLine';
import { LegalPage, operatedBy, type LegalSection } from '../components/LegalPage';

/**
 * Where an analysis is made, as this server is configured (the features page says the same): with
 * an AI provider (Gemini) the description and photos go to it; otherwise nothing leaves the server.
 */
export function aiUse(imageAnalysis: boolean): string {
  return imageAnalysis
    ? 'Descriptions, print settings, photos and attached printer files (with passwords and keys removed) are sent to our AI provider, Google Gemini, solely to produce your analysis.'
    : 'Analyses are made on this server by its built-in engine: your descriptions, settings and photos are not sent to any AI provider.';
}

export default function PrivacyPolicy() {
  const sections: LegalSection[] = [
    {
      title: 'Information We Collect',
      body: (
        <>
          <p>We collect only what we need to run Layerfix:</p>
          <ul>
            <li>Account details: your email address, display name and a sign-in identifier from our identity provider.</li>
            <li>Printer profiles you enter, such as name, brand, nozzle size and build volume.</li>
            <li>Issue reports: category, description, print settings and any photos you upload, plus the analysis we return.</li>
            <li>Usage data: how many analyses you used this month and, for visitors without an account, the IP address used to count free analyses.</li>
            <li>Billing status from our payment provider. We never see or store your full card number.</li>
            <li>Basic technical data such as browser type, pages visited and error logs.</li>
          </ul>
        </>
      ),
    },
    {
      title: 'How We Use Information',
      body: (
        <>
          <p>
            We use your information to diagnose print problems, show your issue history, enforce plan limits, process
            payments, keep the service secure, and improve our recommendations. {aiUse(config.imageAnalysis)}
          </p>
        </>
      ),
    },
    {
      title: 'How We Share Information',
      body: (
        <>
          <p>We do not sell your personal information. We share it only with:</p>
          <ul>
            <li>
              Service providers that run parts of Layerfix for us: hosting, sign-in
              {config.imageAnalysis ? ', payment processing and AI analysis.' : ' and payment processing.'}
            </li>
            <li>Analytics and advertising partners, when enabled, who receive page views and events such as sign-ups and purchases.</li>
            <li>People you choose: when you create a share link, anyone with that link can read the shared troubleshooting guide. Shared solutions help the maker community.</li>
            <li>Authorities, when the law requires it or to protect the rights and safety of users and the service.</li>
          </ul>
        </>
      ),
    },
    {
      title: 'Data Security',
      body: (
        <p>
          Traffic is encrypted in transit, access to stored data is restricted, and payment details are handled by a
          certified payment provider. No system is perfectly secure, so please use a strong password and keep it to
          yourself.
        </p>
      ),
    },
    {
      title: 'Your Rights',
      body: (
        <p>
          You may ask to see, correct, export or delete your personal information, and you may object to or limit some
          processing. Depending on where you live you may have further rights under local law. Contact us to make a
          request; we will answer within the time the law allows.
        </p>
      ),
    },
    {
      title: 'Data Retention',
      body: (
        <p>
          We keep account data, printers and issue history while your account is open. After you close your account we
          delete or anonymize it within a reasonable period, unless we must keep records such as invoices for legal
          reasons. Usage counters for visitors without an account are kept only for the month they count.
        </p>
      ),
    },
    {
      title: 'Cookies and Tracking',
      body: (
        <p>
          We use cookies and local storage to keep you signed in and to remember things such as ticked troubleshooting
          steps. When the operator enables them, analytics and advertising pixels set their own cookies to measure visits
          and conversions. You can block cookies in your browser, though sign-in may then stop working.
        </p>
      ),
    },
    {
      title: 'International Users',
      body: (
        <p>
          Layerfix is hosted in the United States. If you use it from another country, your information is transferred to
          and processed in the United States, where data protection laws may differ from those in your country.
        </p>
      ),
    },
    {
      title: "Children's Privacy",
      body: (
        <p>
          Layerfix is not meant for children under 13, and we do not knowingly collect information from them. If you
          believe a child under 13 has given us personal information, contact us and we will delete it.
        </p>
      ),
    },
    {
      title: 'Changes to This Policy',
      body: (
        <p>
          We may update this policy as the service changes. We will post the new version here with a new date, and tell
          account holders about significant changes by email or in the app.
        </p>
      ),
    },
    {
      title: 'Contact Us',
      body: <ContactLine />,
    },
  ];
  return (
    <LegalPage
      title="Privacy Policy"
      intro={
        <p>
          This policy explains what information Layerfix{operatedBy(config.operatorName)} collects when you use the
          service, how it is used, and the choices you have.
        </p>
      }
      sections={sections}
    />
  );
}
