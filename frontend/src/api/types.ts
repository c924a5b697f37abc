import type { components, paths } from './schema.gen';

// Wire types of the JSON API: the entities and the calls' bodies.

export type Tier = 'free' | 'hobby' | 'pro' | 'farm';
export type Priority = 'high' | 'medium' | 'low';
export type IssueStatus = 'pending' | 'in-progress' | 'resolved';

export type TroubleshootingStep = components['schemas']['Step'];

/** A narrow-it-down question of the built-in engine; answering it re-ranks the steps. */
export type NarrowQuestion = components['schemas']['Question'];

/** An answer to a narrow-it-down question: 'unsure' changes no score. */
export type NarrowAnswer = 'yes' | 'no' | 'unsure';

/**
 * The AI result (troubleshootingData, a saved issue's aiChecklist); an analysis's answer also
 * carries its refine token and signature.
 */
export type TroubleshootingResult = components['schemas']['Analysis'] &
  Partial<Pick<components['schemas']['AIResult'], 'refineToken' | 'signature'>>;

export type UserProfile = components['schemas']['Profile'];

export type Printer = components['schemas']['Printer'];

export type HostKind = 'moonraker' | 'octoprint' | 'prusalink';

export type PrinterHost = components['schemas']['Host'];

export type PrinterHostInput = components['schemas']['HostInput'];

export type PrinterInput = components['schemas']['PrinterInput'];

/** What POST /api/printers/{id}/pull found on the printer's host. */
export type PullResult = paths['/api/printers/{id}/pull']['post']['responses'][200]['content']['application/json'];

/** What a user tells about a failed print: the fields every issue form sends. */
export interface IssueFields {
  category: string;
  description: string;
  material: string | null;
  nozzleTemp: number | null;
  bedTemp: number | null;
  layerHeight: number | null;
  printSpeed: number | null;
  infill: number | null;
}

/**
 * A text file from the printer sent with an analysis: a log, a config, a settings dump. At most 4
 * and 256 KB of text in all; the server removes secrets before it analyses or stores them.
 */
export interface AttachmentInput {
  name: string;
  text: string;
}

/**
 * What the server recognised an attachment as: the kinds of the analysis' file reader
 * (ai/printerfiles), plus Moonraker's config.
 */
export type AttachmentKind =
  | 'klippy-log'
  | 'klipper-console'
  | 'klipper-kconfig'
  | 'klipper-config'
  | 'moonraker-config'
  | 'marlin-m503'
  | 'marlin-config'
  | 'marlin-serial'
  | 'rrf-config'
  | 'rrf-m122'
  | 'rrf-console'
  | 'prusa-m503'
  | 'prusa-support'
  | 'gcode'
  | 'unknown';

/** A saved issue's attachment; its text is at GET /api/issues/{id}/attachments/{n} (owner only). */
export type AttachmentInfo = components['schemas']['Attachment'];

export type Issue = components['schemas']['Issue'];

export interface IssueInput extends IssueFields {
  printerId: number;
  photoUrls: string[];
  /** Settings read from the sliced file in the browser (the file itself is never sent). */
  slicerSettings?: Record<string, unknown> | null;
  attachments?: AttachmentInput[];
}

export interface ResolveInput {
  workingRecommendations: string[];
  resolutionNotes: string;
}

export interface TroubleshootInput extends IssueFields {
  printerBrand: string;
  /** Base64 JPEG strings, downscaled to 800 px at quality 0.7. */
  images: string[];
  screenDimensions: { width: number; height: number };
  slicerSettings?: Record<string, unknown> | null;
  attachments?: AttachmentInput[];
}

/** POST /api/issues/from-analysis: an anonymous analysis saved to the account just made. */
export interface SaveAnalysisInput extends Omit<TroubleshootInput, 'images' | 'screenDimensions'> {
  result: TroubleshootingResult;
  signature: string;
  refineToken: string;
  photoUrls: string[];
}

export type PricingEntry = components['schemas']['PriceEntry'];

export type PlanLimit = components['schemas']['PlanLimit'];

export type UsageLimits = Partial<Record<Tier, PlanLimit>>;

export type PublicUsage = paths['/api/public-usage']['get']['responses'][200]['content']['application/json'];

export type UploadResponse = paths['/api/upload-images']['post']['responses'][200]['content']['application/json'];

export type ShareResponse = paths['/api/share-results']['post']['responses'][201]['content']['application/json'];

export type SharedResult = components['schemas']['SharedResult'];

export type CreateSubscriptionResponse = paths['/api/create-subscription']['post']['responses'][200]['content']['application/json'];

/** The JSON error body of every API error. */
export type ApiErrorBody = components['schemas']['Error'];

// ---- The maker's own account (/account) ----

/** POST /api/user/email: pending when a confirmation link went to the new address. */
export type EmailChangeResult = components['schemas']['EmailChangeResult'];

/** DELETE /api/user. */
export type DeleteAccountResult = components['schemas']['DeleteAccountResult'];
