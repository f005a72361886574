import { describe, expect, it } from 'vitest';
import { canUploadPhoto, nextPhotoStatus } from '../../machines/domain/photo-review-transitions';
import { photoReviewMachine } from '../../machines/domain/photo-review.machine';
import { defineModelTest } from './support/define-model-test';

defineModelTest({ machine: photoReviewMachine, inputs: { 'a member': undefined }, project: () => null });

describe('the server reads the photo review chart (spec §4, §5; decision 007)', () => {
  it('uploads only with no photo or after a rejection', () => {
    expect(nextPhotoStatus('none', 'photo.upload')).toBe('reviewing');
    expect(nextPhotoStatus('rejected', 'photo.upload')).toBe('reviewing');
    expect(canUploadPhoto('reviewing')).toBe(false);
    expect(canUploadPhoto('passed')).toBe(false);
  });

  it('staff decide once, on a photo under review', () => {
    expect(nextPhotoStatus('reviewing', 'photo.pass')).toBe('passed');
    expect(nextPhotoStatus('reviewing', 'photo.reject')).toBe('rejected');
    for (const s of ['none', 'rejected', 'passed'] as const) {
      expect(nextPhotoStatus(s, 'photo.pass'), s).toBeNull();
      expect(nextPhotoStatus(s, 'photo.reject'), s).toBeNull();
    }
  });
});
