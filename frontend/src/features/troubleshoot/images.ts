// Photo handling for the anonymous form: selection rules and in-browser downscaling (800 px, JPEG 0.7).

export const MAX_PHOTOS = 5;
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
export const MAX_SIDE = 800;
export const JPEG_QUALITY = 0.7;

export interface Size {
  width: number;
  height: number;
}

// fitWithin scales a size down so that its longer side is at most maxSide, keeping the aspect
// ratio. Smaller images keep their size; no side becomes less than 1 px.
export function fitWithin(size: Size, maxSide = MAX_SIDE): Size {
  const longest = Math.max(size.width, size.height);
  if (longest <= maxSide) return { width: size.width, height: size.height };
  const scale = maxSide / longest;
  return {
    width: Math.max(1, Math.round(size.width * scale)),
    height: Math.max(1, Math.round(size.height * scale)),
  };
}

export interface PhotoSelection {
  accepted: File[];
  rejected: string[];
}

// selectPhotos adds new files to the current ones: only images, at most 10 MB each, at most 5 in
// all. Every refused file gets a message saying why.
export function selectPhotos(current: readonly File[], added: readonly File[]): PhotoSelection {
  const accepted: File[] = [];
  const rejected: string[] = [];
  for (const file of added) {
    if (!file.type.startsWith('image/')) {
      rejected.push(`${file.name} is not an image. Only PNG and JPG photos can be added.`);
    } else if (file.size > MAX_PHOTO_BYTES) {
      rejected.push(`${file.name} is larger than 10MB. Please choose a smaller photo.`);
    } else if (current.length + accepted.length >= MAX_PHOTOS) {
      rejected.push(`${file.name} was not added: at most ${MAX_PHOTOS} photos per issue.`);
    } else {
      accepted.push(file);
    }
  }
  return { accepted, rejected };
}

// stripDataUrl returns the base64 part of a data URL.
export function stripDataUrl(dataUrl: string): string {
  const comma = dataUrl.indexOf(',');
  return dataUrl.startsWith('data:') && comma >= 0 ? dataUrl.slice(comma + 1) : dataUrl;
}

function loadImage(file: File): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const img = new Image();
    img.onload = () => {
      URL.revokeObjectURL(url);
      resolve(img);
    };
    img.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error(`Could not read ${file.name} as an image`));
    };
    img.src = url;
  });
}

// downscaleImage draws the photo at most 800 px on its longer side and encodes it as JPEG at
// quality 0.7. It returns a data URL.
export async function downscaleImage(file: File): Promise<string> {
  const img = await loadImage(file);
  const { width, height } = fitWithin({ width: img.naturalWidth, height: img.naturalHeight });
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('Canvas is not available');
  // JPEG has no transparency: paint transparent PNG areas white instead of black.
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.drawImage(img, 0, 0, width, height);
  return canvas.toDataURL('image/jpeg', JPEG_QUALITY);
}

export const UPLOAD_MAX_SIDE = 2048;
export const UPLOAD_JPEG_QUALITY = 0.9;

// resizeForUpload shrinks a photo of a saved issue to at most 2048 px (what the server stores) as
// a JPEG before it is uploaded: a phone's 12–48 MP photo becomes well under 1 MB, the upload is
// fast on a weak connection and the server never decodes more than it keeps. Browsers apply the
// EXIF orientation when drawing, and the canvas drops every metadata block (GPS included). A photo
// the browser cannot draw (an exotic format) is sent as it is and the server says what is wrong.
export async function resizeForUpload(file: File): Promise<File> {
  let img: HTMLImageElement;
  try {
    img = await loadImage(file);
  } catch {
    return file;
  }
  const { width, height } = fitWithin({ width: img.naturalWidth, height: img.naturalHeight }, UPLOAD_MAX_SIDE);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx || width === 0 || height === 0) return file;
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.drawImage(img, 0, 0, width, height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', UPLOAD_JPEG_QUALITY));
  if (!blob) return file;
  const name = file.name.replace(/\.[^.]*$/, '') + '.jpg';
  return new File([blob], name, { type: 'image/jpeg' });
}
