import type { FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import AutoAwesomeRounded from '@mui/icons-material/AutoAwesomeRounded';
import { IssueDetailsFields } from '../issueform/IssueDetailsFields';
import type { Attachment } from '../attachments/attachments';
import type { SlicerSettings } from '../slicedfile/parse';
import { useIssueForm } from '../issueform/useIssueForm';
import type { FormDraft } from '../issueform/draft';
import { FormFailure } from '../issueform/FormFailure';
import type { ToastText } from './errors';
import { EMPTY_FORM, validateTroubleshootForm, type TroubleshootFormValues } from './validation';

interface Props {
  /** Why the last analysis failed, shown above the submit button. */
  failure?: ToastText | null;
  /** Where the form keeps its draft, and a draft to start from. */
  draftKey?: string | null;
  restored?: FormDraft<TroubleshootFormValues> | null;
  initialValues?: TroubleshootFormValues;
  onSubmit: (values: TroubleshootFormValues, photos: File[], slicer: SlicerSettings | null, attachments: Attachment[]) => void;
  submitting?: boolean;
}

// TroubleshootForm is the anonymous issue form of the home screen.
export function TroubleshootForm({ initialValues = EMPTY_FORM, failure = null, draftKey = null, restored = null, onSubmit, submitting = false }: Props) {
  const form = useIssueForm(initialValues, draftKey, restored);
  const { values, errors, set } = form;

  const handleSubmit = (e: FormEvent) => {
    e.preventDefault();
    form.saveDraft();
    if (form.showErrors(validateTroubleshootForm(values))) onSubmit(values, form.photos, form.slicer, form.attachments);
  };

  return (
    <Box component="form" noValidate onSubmit={handleSubmit} aria-label="Describe your print problem">
      <Stack spacing={3}>
        <TextField
          label="Printer Brand/Model"
          name="printerBrand"
          placeholder="e.g. Creality Ender 3 V2, Prusa MK4, Bambu Lab P1S"
          value={values.printerBrand}
          onChange={(e) => set('printerBrand')(e.target.value)}
          error={Boolean(errors.printerBrand)}
          helperText={errors.printerBrand}
          required
          fullWidth
          autoComplete="off"
        />
        <IssueDetailsFields
          form={form}
          descriptionPlaceholder="What went wrong? When did it start, what does it look like, what have you already tried? e.g. 'The first layer won't stick in the corners and the edges curl up after a few layers.'"
          detailsId="additional-details"
          printerField="printerBrand"
        />
        {failure && <FormFailure failure={failure} />}
        <Button
          type="submit"
          variant="contained"
          size="large"
          startIcon={<AutoAwesomeRounded />}
          disabled={submitting}
          sx={{ py: 1.5, fontSize: 16 }}
        >
          Analyze Issue
        </Button>
      </Stack>
    </Box>
  );
}
