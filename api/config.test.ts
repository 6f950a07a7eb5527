import { expect } from 'chai';
import { REQUIRED_SETTINGS } from '../test/settings-read.js';
import { bookingSettings, loadApiConfig } from './config.js';

describe("the booking's settings", () => {
  it('resolve unset to the same defaults whether read from the environment or chosen by a program', () => {
    expect(loadApiConfig({ ...REQUIRED_SETTINGS }).booking).to.deep.equal(bookingSettings());
  });

  it('take each setting from the environment', () => {
    const booking = loadApiConfig({
      ...REQUIRED_SETTINGS,
      MIN_NOTICE_MINUTES: '30',
      SLOT_CAPACITY: '2',
      EMAILS_PER_RECIPIENT_PER_DAY: '0',
      REMINDER_MINUTES_BEFORE: '60',
      SALES_NOTIFY_EMAIL: 'sales@converge.test',
    }).booking;
    expect(booking).to.deep.include({
      minNoticeMinutes: 30,
      followUps: { salesNotifyEmail: 'sales@converge.test', reminderMinutesBefore: 60 },
    });
    expect(booking.limits).to.include({ slotCapacity: 2, emailsPerRecipientPerDay: 0 });
  });
});
