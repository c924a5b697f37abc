import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { config } from '../config';
import PrivacyPolicy, { aiUse } from './PrivacyPolicy';
import TermsOfService from './TermsOfService';
import { renderWithProviders } from '../test/render';

afterEach(() => {
  config.operatorName = '';
  config.contactEmail = '';
});

function sectionTitles() {
  return screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
}

describe('legal pages', () => {
  it('privacy policy has the 11 sections, the date and a link home', () => {
    renderWithProviders(<PrivacyPolicy />);
    expect(sectionTitles()).toEqual([
      '1. Information We Collect',
      '2. How We Use Information',
      '3. How We Share Information',
      '4. Data Security',
      '5. Your Rights',
      '6. Data Retention',
      '7. Cookies and Tracking',
      '8. International Users',
      "9. Children's Privacy",
      '10. Changes to This Policy',
      '11. Contact Us',
    ]);
    expect(screen.getByText('Last updated June 7, 2025')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
    expect(screen.getByText(/hosted in the United States/)).toBeInTheDocument();
    expect(screen.getByText(/not meant for children under 13/)).toBeInTheDocument();
  });

  it('says where descriptions and photos go as this server is configured', () => {
    expect(aiUse(false)).toMatch(/built-in engine: your descriptions, settings and photos are not sent to any AI provider/);
    expect(aiUse(true)).toMatch(/sent to our AI provider, Google Gemini/);
    renderWithProviders(<PrivacyPolicy />);
    expect(screen.queryByText(/sent to an AI provider|AI analysis\./)).not.toBeInTheDocument();
  });

  it('terms of service has the 12 sections', () => {
    renderWithProviders(<TermsOfService />);
    expect(sectionTitles()).toHaveLength(12);
    expect(sectionTitles()[3]).toBe('4. Subscriptions and Billing');
    expect(sectionTitles()[11]).toBe('12. Contact Information');
    expect(screen.getByText('Last updated June 7, 2025')).toBeInTheDocument();
  });

  it('uses the configured operator name and contact email', () => {
    config.operatorName = 'Filament Works LLC';
    config.contactEmail = 'help@example.org';
    renderWithProviders(<TermsOfService />);
    expect(screen.getByText(/operated by Filament Works LLC/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'help@example.org' })).toHaveAttribute('href', 'mailto:help@example.org');
  });

  it('falls back to neutral wording without operator settings', () => {
    renderWithProviders(<PrivacyPolicy />);
    expect(screen.queryByText(/operated by/)).not.toBeInTheDocument();
    expect(screen.getByText(/No contact email has been configured/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /@/ })).not.toBeInTheDocument();
  });
});
