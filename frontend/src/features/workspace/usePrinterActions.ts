// Add, edit and delete printers, with a toast for each outcome.
import { useState } from 'react';
import { useSWRConfig } from 'swr';
import { createPrinter, deletePrinter, updatePrinter, type Printer } from '../../api/client';
import { useToast } from '../../components/Toast';
import { STATS_KEY } from './history';
import { PRINTERS_KEY, revalidateIssues } from './hooks';
import { printerPayload, type PrinterFormValues } from './printerValidation';

export function usePrinterActions() {
  const { toast } = useToast();
  const { mutate } = useSWRConfig();
  const [busy, setBusy] = useState(false);

  const run = async (action: () => Promise<unknown>, ok: string, failed: string): Promise<boolean> => {
    setBusy(true);
    try {
      await action();
      toast({ title: 'Success', description: ok, variant: 'success' });
      return true;
    } catch {
      toast({ title: 'Error', description: failed, variant: 'destructive' });
      return false;
    } finally {
      setBusy(false);
      void mutate(PRINTERS_KEY);
      void mutate(STATS_KEY);
    }
  };

  return {
    busy,
    add: (v: PrinterFormValues) => run(() => createPrinter(printerPayload(v)), 'Printer added successfully', 'Failed to add printer'),
    update: (p: Printer, v: PrinterFormValues) =>
      run(() => updatePrinter(p.id, printerPayload(v)), 'Printer updated successfully', 'Failed to update printer'),
    // Issues of a deleted printer stay and read 'Unknown Printer': reload them too.
    remove: async (p: Printer) => {
      const ok = await run(() => deletePrinter(p.id), 'Printer deleted successfully', 'Failed to delete printer');
      if (ok) revalidateIssues(mutate);
      return ok;
    },
  };
}
