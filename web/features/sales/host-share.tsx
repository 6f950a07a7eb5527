/** Each host's share of the demos of the last 28 days, across routes and by route: is the fair choice fair? */
import { serverMessage } from '../../store/api-errors.js';
import { useHostShareQuery } from '../../store/sales-api.js';
import { Alert, ColumnHeads, Muted, Panel, SubHeading, Table, useSessionEnd } from './parts.js';

const percent = (share: number) => `${Math.round(share * 100)}%`;

export function HostSharePanel({ onSessionEnded }: { onSessionEnded: () => void }) {
  const { data, error, isLoading } = useHostShareQuery();
  useSessionEnd(error, onSessionEnded);
  return (
    <Panel aria-labelledby="host-share-title">
      <SubHeading id="host-share-title">Demos per host</SubHeading>
      <Muted>
        Demos booked in the last {data?.days ?? 28} days and not cancelled, per host, across routes and by the route
        that chose them.
      </Muted>
      {isLoading ? <p role="status">Loading the shares…</p> : null}
      {error ? <Alert role="alert">{serverMessage(error) ?? 'The shares could not be read.'}</Alert> : null}
      {data ? (
        data.hosts.length === 0 ? (
          <Muted>No team: the demos have no hosts.</Muted>
        ) : (
          <Table title={`Demos per host (${data.total} in all)`}>
            <ColumnHeads names={['Host', 'Demos', 'Share', 'By route']} />
            <tbody>
              {data.hosts.map((host) => (
                <tr key={host.email}>
                  <th scope="row">{host.name}</th>
                  <td>{host.demos}</td>
                  <td>{percent(host.share)}</td>
                  <td>
                    {host.routes.length === 0
                      ? '—'
                      : host.routes
                          .map(
                            (route) =>
                              `${route.rule === null ? '' : `${route.rule + 1}. `}${route.label}: ${route.demos}`,
                          )
                          .join('; ')}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )
      ) : null}
    </Panel>
  );
}
