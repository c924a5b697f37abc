import { AttachFiles } from '../attachments/AttachFiles';
import { SlicedFileImport } from '../slicedfile/SlicedFileImport';
import { CategoryTiles } from '../troubleshoot/CategoryTiles';
import { PhotoDropZone } from '../troubleshoot/PhotoDropZone';
import { AdditionalDetails } from './AdditionalDetails';
import { DescriptionField } from './DescriptionField';
import type { IssueFormState } from './useIssueForm';
import type { IssueDetailsValues } from './validation';

interface Props {
  form: Omit<IssueFormState<IssueDetailsValues>, 'showErrors'>;
  descriptionPlaceholder: string;
  /** The id of the 'Additional Details' panel, unique on the page. */
  detailsId: string;
  /** The form field a sliced file's printer model fills (the anonymous form's brand). */
  printerField?: string;
}

// IssueDetailsFields are the fields both issue forms share, below their printer field: category
// tiles, description, photos, the sliced file, the printer's logs and configs and the optional details.
export function IssueDetailsFields({ form, descriptionPlaceholder, detailsId, printerField }: Props) {
  const { values, errors, set } = form;
  return (
    <>
      <CategoryTiles value={values.category} onChange={set('category')} error={errors.category} />
      <DescriptionField
        value={values.description}
        onChange={set('description')}
        error={errors.description}
        placeholder={descriptionPlaceholder}
      />
      <PhotoDropZone files={form.photos} onChange={form.setPhotos} />
      <SlicedFileImport
        settings={form.slicer}
        onRead={(s) => form.applySlicer(s, printerField as keyof IssueDetailsValues | undefined)}
      />
      <AttachFiles attachments={form.attachments} onChange={form.setAttachments} />
      <AdditionalDetails
        id={detailsId}
        open={form.detailsOpen}
        onToggle={form.toggleDetails}
        values={values}
        errors={errors}
        set={set}
      />
    </>
  );
}
