-- The host that drives a printer (Moonraker, OctoPrint or PrusaLink), which
-- Layerfix may ask for the last job, the config and the log when the
-- operator allows it. host_key is the host's API key sealed with AES-GCM
-- under a server key: it is never stored in clear.
ALTER TABLE printers ADD COLUMN host_kind TEXT NOT NULL DEFAULT '';
ALTER TABLE printers ADD COLUMN host_url TEXT NOT NULL DEFAULT '';
ALTER TABLE printers ADD COLUMN host_key TEXT NOT NULL DEFAULT '';
