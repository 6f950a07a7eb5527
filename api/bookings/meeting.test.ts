import { expect } from 'chai';
import { ConfigError } from '../../server-shared/settings.js';
import { DEFAULT_MEETING_URL_TEMPLATE, meetingUrlOf, parseMeetingUrlTemplate } from './meeting.js';

describe('video rooms (MEETING_URL_TEMPLATE)', () => {
  it('gives each booking a room nobody can guess: 20 base32 characters in place of {room}, or appended', () => {
    const rooms = Array.from({ length: 1000 }, () => meetingUrlOf(DEFAULT_MEETING_URL_TEMPLATE));
    expect(new Set(rooms).size).to.equal(1000);
    for (const room of rooms) expect(room).to.match(/^https:\/\/meet\.jit\.si\/ConvergeDemo-[a-z2-7]{20}$/);
    expect(meetingUrlOf('https://video.example.com/rooms/')).to.match(
      /^https:\/\/video\.example\.com\/rooms\/[a-z2-7]{20}$/,
    );
  });

  it('takes an https:// template (http:// only on this machine) and refuses anything else at start, naming the setting', () => {
    expect(parseMeetingUrlTemplate(undefined)).to.equal(DEFAULT_MEETING_URL_TEMPLATE);
    expect(parseMeetingUrlTemplate('https://zoom.example.com/j/{room}')).to.equal('https://zoom.example.com/j/{room}');
    expect(parseMeetingUrlTemplate('http://localhost:8443/{room}')).to.equal('http://localhost:8443/{room}');
    for (const bad of ['http://meet.example.com/{room}', 'meet.jit.si/{room}', 'javascript:alert(1)//{room}']) {
      expect(() => parseMeetingUrlTemplate(bad), bad).to.throw(ConfigError, /^MEETING_URL_TEMPLATE /);
    }
  });
});
