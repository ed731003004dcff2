import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../test/api-mock';
import { harness } from '../../test/app-harness';
import { byTestId, type Rendered, render, settle } from '../../test/render';
import { ReceivedUpload } from './received-upload';

describe('who sent a received transfer (dashboard detail)', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  it('names the uploader, the request, their message and answers, with the way to download', async () => {
    mockApi({
      'GET /api/receive/received/TrAnSfEr00000001': () =>
        json({
          transferId: 'TrAnSfEr00000001',
          point: {
            kind: 'request',
            id: 'contract-2030',
            title: 'Signed contract',
            widgetId: null,
            viaPush: false,
          },
          uploader: {
            name: 'Bob',
            email: 'bob@example.com',
            emailVerified: true,
            message: 'Pages 1 to 3',
            answers: [{ questionId: 'q1', label: 'Project number', answer: '42' }],
          },
          receivedAt: '2030-01-02T10:00:00.000Z',
        }),
    });
    const transfer = { transferId: 'TrAnSfEr00000001', link: '/dl/TrAnSfEr00000001', type: 'S3' as const };
    view = await render(harness(<ReceivedUpload transfer={transfer} />, '/').ui);
    await settle();
    const root = view.container;
    expect(byTestId(root, 'received-from').textContent).toBe('Bob · bob@example.com');
    expect(byTestId(root, 'received-via').textContent).toBe('The request “Signed contract”');
    expect(byTestId(root, 'received-message').textContent).toBe('Pages 1 to 3');
    expect(byTestId(root, 'received-answer').textContent).toBe('Project number42');
    expect(byTestId(root, 'received-download').getAttribute('href')).toBe(
      `${window.location.origin}/dl/TrAnSfEr00000001`,
    );
  });

  it('is not shown for a transfer that was sent, not received', async () => {
    const api = mockApi({});
    const transfer = { transferId: 'TrAnSfEr00000001', link: '/dl/TrAnSfEr00000001', type: 'S1' as const };
    view = await render(harness(<ReceivedUpload transfer={transfer} />, '/').ui);
    await settle();
    expect(view.container.querySelector('[data-testid="received-upload"]')).toBeNull();
    expect(api.calls).toHaveLength(0);
  });
});
