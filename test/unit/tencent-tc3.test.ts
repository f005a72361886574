import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { tc3CanonicalRequest, tc3Headers, tc3Sign, tc3StringToSign } from '../../src/server/gateways/tencent-tc3';

/**
 * Tencent Cloud's published worked example for signature v3 ("Signature v3" / 签名方法 v3, API 3.0
 * common docs): CVM DescribeInstances in ap-guangzhou at X-TC-Timestamp 1551113065. Every expected
 * value below is the one the document prints; none is computed by our code.
 */
const DOC = {
  secretId: 'AKID**********************0123456789EXAMPLE',
  secretKey: 'Gu5t9xGARNpq86cd98joQYCN3EXAMPLE',
  service: 'cvm',
  host: 'cvm.tencentcloudapi.com',
  action: 'DescribeInstances',
  version: '2017-03-12',
  region: 'ap-guangzhou',
  timestamp: 1551113065,
  // the body exactly as the document sends it (the Chinese name as \u escapes)
  payload: '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}',
};
const DOC_HASHED_PAYLOAD = '35e9c5b0e3ae67532d3c9f17ead6c90222632e5b1ff7f6e89887f1398934f064';
const DOC_CANONICAL_REQUEST = [
  'POST',
  '/',
  '',
  'content-type:application/json; charset=utf-8',
  'host:cvm.tencentcloudapi.com',
  '',
  'content-type;host',
  DOC_HASHED_PAYLOAD,
].join('\n');
const DOC_HASHED_CANONICAL_REQUEST = '5ffe6a04c0664d6b969fab9a13bdab201d63ee709638e2749d62a09ca18d7031';
const DOC_STRING_TO_SIGN = ['TC3-HMAC-SHA256', '1551113065', '2019-02-25/cvm/tc3_request', DOC_HASHED_CANONICAL_REQUEST].join('\n');
const DOC_SIGNATURE = '72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168';
const DOC_AUTHORIZATION =
  'TC3-HMAC-SHA256 Credential=AKID**********************0123456789EXAMPLE/2019-02-25/cvm/tc3_request, SignedHeaders=content-type;host, Signature=72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168';

describe("TC3-HMAC-SHA256 against Tencent Cloud's published example", () => {
  it('step 1: the canonical request, byte for byte', () => {
    expect(tc3CanonicalRequest(DOC)).toBe(DOC_CANONICAL_REQUEST);
    expect(createHash('sha256').update(tc3CanonicalRequest(DOC)).digest('hex')).toBe(DOC_HASHED_CANONICAL_REQUEST);
  });

  it("step 2: the string to sign (the credential date is the UTC date, not Shanghai's 2019-02-26)", () => {
    expect(tc3StringToSign(DOC)).toBe(DOC_STRING_TO_SIGN);
  });

  it('steps 3-4: the signature and the Authorization header', () => {
    const { signature, authorization } = tc3Sign(DOC);
    expect(signature).toBe(DOC_SIGNATURE);
    expect(authorization).toBe(DOC_AUTHORIZATION);
  });

  it('the request headers of the example', () => {
    expect(tc3Headers(DOC)).toEqual({
      Authorization: DOC_AUTHORIZATION,
      'Content-Type': 'application/json; charset=utf-8',
      Host: 'cvm.tencentcloudapi.com',
      'X-TC-Action': 'DescribeInstances',
      'X-TC-Timestamp': '1551113065',
      'X-TC-Version': '2017-03-12',
      'X-TC-Region': 'ap-guangzhou',
    });
  });

  it('any change to the body changes the signature', () => {
    expect(tc3Sign({ ...DOC, payload: DOC.payload.replace('1', '2') }).signature).not.toBe(DOC_SIGNATURE);
  });
});
