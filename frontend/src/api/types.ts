// Wire types of the JSON API: the entities and the calls' bodies.

export type Tier = 'free' | 'hobby' | 'pro' | 'farm';
export type Priority = 'high' | 'medium' | 'low';
export type IssueStatus = 'pending' | 'in-progress' | 'resolved';

export interface TroubleshootingStep {
  title: string;
  description: string;
  priority: Priority;
}

/** A narrow-it-down question of the built-in engine; answering it re-ranks the steps. */
export interface NarrowQuestion {
  id: string;
  text: string;
}

/** An answer to a narrow-it-down question: 'unsure' changes no score. */
export type NarrowAnswer = 'yes' | 'no' | 'unsure';

/** The AI result, stored as troubleshootingData / aiChecklist. */
export interface TroubleshootingResult {
  summary: string;
  steps: TroubleshootingStep[];
  additionalTips: string[];
  /** Up to two questions separating close causes, answered ones first (built-in engine only). */
  questions?: NarrowQuestion[];
  /** Answers given so far, by question id. */
  answers?: Record<string, NarrowAnswer>;
  /** Who answered: the built-in engine, Gemini, the operator's OpenAI-compatible model, or the built-in engine after the model failed. */
  engine?: 'built-in' | 'gemini' | 'openai' | 'fallback';
  /** The remote model that answered (or, with engine fallback, the one that failed). */
  model?: string;
  /** With engine fallback: the engine that failed. */
  fallbackFrom?: 'gemini' | 'openai';
  /**
   * Binds an anonymous result's inputs for 24 hours: it lets the result be narrowed down without
   * spending a credit, and saved to the account the maker signs up for.
   */
  refineToken?: string;
  /** The server's signature: only results it made can be shared. */
  signature?: string;
}

export interface UserProfile {
  id: number;
  firebaseUid: string;
  email: string;
  displayName: string | null;
  subscriptionStatus?: string | null;
  subscriptionTier?: Tier | null;
  monthlyUsage?: number;
}

export interface Printer {
  id: number;
  userId?: number;
  name: string;
  brand: string;
  nozzleSize: number;
  filamentDiameter?: number;
  buildVolume?: string | null;
  createdAt?: string;
  /** The host that drives the printer; its API key is never sent back, only whether one is saved. */
  host?: PrinterHost | null;
}

export type HostKind = 'moonraker' | 'octoprint' | 'prusalink';

export interface PrinterHost {
  kind: HostKind;
  url: string;
  hasApiKey: boolean;
}

export interface PrinterHostInput {
  kind: HostKind;
  url: string;
  /** Left out: keep the saved key (same kind and address only); '': remove it. */
  apiKey?: string;
}

export interface PrinterInput {
  name: string;
  brand: string;
  nozzleSize: number;
  buildVolume?: string | null;
  /** Left out: keep the host; null: unlink it. */
  host?: PrinterHostInput | null;
}

/** What POST /api/printers/{id}/pull found on the printer's host. */
export interface PullResult {
  kind: HostKind;
  software?: string;
  state?: string;
  message?: string;
  job?: { file: string; status: string; reason?: string };
  form: {
    /** The issue category the printer's errors point to. */
    category?: string;
    material?: string;
    nozzleTemp?: number;
    bedTemp?: number;
    layerHeight?: number;
    infill?: number;
    slicerSettings?: Record<string, string | number>;
  };
  attachments: { name: string; text: string }[];
  /** What the printer says, for the maker to review before Analyze. */
  summary: string;
  /** What could not be read, and why. */
  notes: string[];
}

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
export interface AttachmentInfo {
  name: string;
  kind: AttachmentKind;
  label: string;
  bytes: number;
}

export interface Issue extends IssueFields {
  id: number;
  /** The category the analysis diagnosed; null when none (or saved before it was kept). */
  diagnosedCategory?: string | null;
  userId: number;
  printerId: number | null;
  photoUrls: string[];
  aiChecklist: TroubleshootingResult | null;
  /** Signature of aiChecklist, for sharing it. */
  aiChecklistSignature?: string;
  status: IssueStatus;
  resolvedAt: string | null;
  workingRecommendations: string[];
  /** Titles of the steps the maker ticked, stored with the issue. */
  checkedSteps?: string[];
  resolutionNotes: string | null;
  createdAt: string;
  printer?: { name: string; brand: string } | null;
  /** How many files are attached (every issue answer). */
  attachmentCount?: number;
  /** Names, kinds and sizes of the attached files (on one issue's answers only). */
  attachments?: AttachmentInfo[];
}

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

export interface PricingEntry {
  tier: Tier;
  amount: number;
}

export interface PlanLimit {
  name: string;
  limit: number;
}

export type UsageLimits = Partial<Record<Tier, PlanLimit>>;

export interface PublicUsage {
  currentUsage: number;
  /** When this month's free analyses return (RFC 3339). */
  resetsAt?: string;
}

export interface UploadResponse {
  images: { url: string }[];
}

export interface ShareResponse {
  shareId: string;
}

export interface SharedResult {
  shareId: string;
  title: string;
  troubleshootingData: TroubleshootingResult;
  createdAt: string;
}

export interface CreateSubscriptionResponse {
  clientSecret?: string | null;
  message?: string;
}

/** The JSON error body of every API error. */
export interface ApiErrorBody {
  error: { code: string; message: string; fields?: Record<string, string> };
}

// ---- The maker's own account (/account) ----

/** POST /api/user/email: pending when a confirmation link went to the new address. */
export interface EmailChangeResult {
  email: string;
  pending: boolean;
  message: string;
}

/** DELETE /api/user. */
export interface DeleteAccountResult {
  deleted: boolean;
  /** A paid subscription was canceled at the payment provider first. */
  subscriptionCanceled: boolean;
  /** Firebase mode: the server deleted the Firebase account (false: the browser deletes it). */
  identityDeleted?: boolean;
  message: string;
}
