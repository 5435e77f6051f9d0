/** `numpy.fft`: not implemented yet (each name throws a clear error when called). */
import { notYet } from "../unsupported.js";

export const fft = notYet("fft");
export const ifft = notYet("ifft");
export const fft2 = notYet("fft2");
export const ifft2 = notYet("ifft2");
export const fftn = notYet("fftn");
export const ifftn = notYet("ifftn");
export const rfft = notYet("rfft");
export const irfft = notYet("irfft");
export const rfft2 = notYet("rfft2");
export const irfft2 = notYet("irfft2");
export const rfftn = notYet("rfftn");
export const irfftn = notYet("irfftn");
export const hfft = notYet("hfft");
export const ihfft = notYet("ihfft");
export const fftfreq = notYet("fftfreq");
export const rfftfreq = notYet("rfftfreq");
export const fftshift = notYet("fftshift");
export const ifftshift = notYet("ifftshift");

export interface ComplexPair {
  real: unknown;
  imag: unknown;
}
