/** The longest side a front photo keeps: enough for a face, far below the upload limit. */
const MAX_SIDE = 720;

/**
 * Scales a chosen picture down in the browser (a phone camera's photo is several MB) and encodes it
 * as JPEG: the base64 the upload sends and its decoded size. Throws when the browser cannot read it.
 */
export async function preparePhoto(file: Blob): Promise<{ image: string; bytes: number }> {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  const image = canvas.toDataURL('image/jpeg', 0.85).replace(/^data:image\/jpeg;base64,/, '');
  const padding = image.endsWith('==') ? 2 : image.endsWith('=') ? 1 : 0;
  return { image, bytes: (image.length * 3) / 4 - padding };
}
