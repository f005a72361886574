import { describe, expect, it } from 'vitest';
import { PHOTO_MAX_BYTES, PHOTO_REVIEW_STATES, PHOTO_TYPES, photoCounts, sniffImageType } from '../../src/domain/photo-review';

const bytes = (...b: number[]) => Uint8Array.from(b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
const JPEG = [0xff, 0xd8, 0xff, 0xe0];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const WEBP = [...ascii('RIFF'), 0x24, 0x00, 0x00, 0x00, ...ascii('WEBP'), ...ascii('VP8 ')];

describe('photo review (spec §4; decision 007)', () => {
  it('has the three states of spec §4 (under review, rejected, passed) and passed with another upload allowed (decision 042)', () => {
    expect([...PHOTO_REVIEW_STATES]).toEqual(['reviewing', 'rejected', 'passed', 'reopened']);
  });

  it('a photo counts (face check-in, the avatar on Mine) once passed, also while another upload is allowed', () => {
    expect((['none', ...PHOTO_REVIEW_STATES] as const).filter(photoCounts)).toEqual(['passed', 'reopened']);
  });

  it('accepts a photo of at most 512 KB ("image too large" beyond)', () => {
    expect(PHOTO_MAX_BYTES).toBe(524_288);
  });

  it('accepts JPEG, PNG and WebP only', () => {
    expect([...PHOTO_TYPES]).toEqual(['image/jpeg', 'image/png', 'image/webp']);
  });
});

/**
 * Stryker's three survivors here are equivalent: each `b.length >= n` guard made always true changes
 * nothing, since reading past the end gives undefined (never a signature byte) and a short slice never
 * spells RIFF or WEBP. The truncated-signature cases below would fail if a guard let a short file pass.
 */
describe('an image type is recognised from its first bytes, never from what the client says', () => {
  it('JPEG: FF D8 FF', () => {
    expect(sniffImageType(bytes(...JPEG, 0x00, 0x10))).toBe('image/jpeg');
    expect(sniffImageType(bytes(0xff, 0xd8, 0xff))).toBe('image/jpeg');
    expect(sniffImageType(bytes(0xff, 0xd8))).toBeNull();
    expect(sniffImageType(bytes(0xff, 0xd8, 0xfe))).toBeNull();
    expect(sniffImageType(bytes(0xfe, 0xd8, 0xff))).toBeNull();
    expect(sniffImageType(bytes(0xff, 0xd9, 0xff))).toBeNull();
  });

  it('PNG: the eight-byte signature, every byte of it', () => {
    expect(sniffImageType(bytes(...PNG, 0x00))).toBe('image/png');
    expect(sniffImageType(bytes(...PNG))).toBe('image/png');
    expect(sniffImageType(bytes(...PNG.slice(0, 7)))).toBeNull();
    for (let i = 0; i < PNG.length; i++) {
      const wrong = [...PNG];
      wrong[i] = wrong[i]! ^ 0x01;
      expect(sniffImageType(bytes(...wrong)), `byte ${i}`).toBeNull();
    }
  });

  it('WebP: RIFF, a size, then WEBP', () => {
    expect(sniffImageType(bytes(...WEBP))).toBe('image/webp');
    expect(sniffImageType(bytes(...WEBP.slice(0, 12)))).toBe('image/webp');
    expect(sniffImageType(bytes(...WEBP.slice(0, 11)))).toBeNull();
    // other RIFF files (a WAV sound) are not images
    expect(sniffImageType(bytes(...ascii('RIFF'), 0, 0, 0, 0, ...ascii('WAVE')))).toBeNull();
    expect(sniffImageType(bytes(...ascii('RIFX'), 0, 0, 0, 0, ...ascii('WEBP')))).toBeNull();
  });

  it('anything else is refused: GIF, text, an empty file', () => {
    expect(sniffImageType(bytes(...ascii('GIF89a'), 0, 0, 0, 0, 0, 0))).toBeNull();
    expect(sniffImageType(bytes(...ascii('<svg xmlns="http://www.w3.org/2000/svg">')))).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
  });
});
