import type { FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import AutoAwesomeRounded from '@mui/icons-material/AutoAwesomeRounded';
import type { Printer } from '../../api/client';
import { IssueDetailsFields } from '../issueform/IssueDetailsFields';
import type { Attachment } from '../attachments/attachments';
import type { SlicerSettings } from '../slicedfile/parse';
import { useIssueForm } from '../issueform/useIssueForm';
import type { FormDraft } from '../issueform/draft';
import { FormFailure } from '../issueform/FormFailure';
import type { ToastText } from '../troubleshoot/errors';
import { validateIssueForm, type IssueFormValues } from './issueValidation';
import { PrinterSelect } from './PrinterSelect';
import { DiagnoseLastPrint } from '../printerlink/DiagnoseLastPrint';

interface Props {
  /** Why the last analysis failed, shown above the submit button. */
  failure?: ToastText | null;
  /** Where the form keeps its draft, and a draft to start from. */
  draftKey?: string | null;
  restored?: FormDraft<IssueFormValues> | null;
  initialValues: IssueFormValues;
  printers: readonly Printer[];
  printersLoading: boolean;
  submitting: boolean;
  onSubmit: (values: IssueFormValues, photos: File[], slicer: SlicerSettings | null, attachments: Attachment[]) => void;
  onCancel: () => void;
}

// IssueForm is the signed-in issue form of /report-issue.
export function IssueForm({ initialValues, failure = null, draftKey = null, restored = null, printers, printersLoading, submitting, onSubmit, onCancel }: Props) {
  const form = useIssueForm(initialValues, draftKey, restored);
  const { values, errors, set } = form;

  // A preselected or remembered printer that no longer exists counts as no choice; a maker with
  // exactly one printer has it chosen.
  const printerId = printers.some((p) => String(p.id) === values.printerId)
    ? values.printerId
    : printers.length === 1
      ? String(printers[0].id)
      : '';

  const handleSubmit = (e: FormEvent) => {
    e.preventDefault();
    form.saveDraft();
    const checked = { ...values, printerId };
    if (form.showErrors(validateIssueForm(checked))) onSubmit(checked, form.photos, form.slicer, form.attachments);
  };

  return (
    <Box component="form" noValidate onSubmit={handleSubmit} aria-label="Report an issue">
      <Stack spacing={3}>
        <PrinterSelect
          printers={printers}
          loading={printersLoading}
          value={printerId}
          onChange={set('printerId')}
          error={errors.printerId}
        />
        <DiagnoseLastPrint printer={printers.find((p) => String(p.id) === printerId)} form={form} />
        <IssueDetailsFields
          form={form}
          descriptionPlaceholder="What went wrong? When did it start, what does it look like, what have you already tried?"
          detailsId="issue-additional-details"
        />
        {failure && <FormFailure failure={failure} />}
        <Stack direction={{ xs: 'column-reverse', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'flex-end' }}>
          <Button onClick={onCancel} disabled={submitting} color="inherit" size="large">
            Cancel
          </Button>
          <Button type="submit" variant="contained" size="large" startIcon={<AutoAwesomeRounded />} disabled={submitting} sx={{ minWidth: 200 }}>
            {submitting ? 'Analyzing Issue...' : 'Analyze Issue'}
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}
