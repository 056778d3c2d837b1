import { useId } from 'react';
import { CartesianGrid, Cell, Line, LineChart, Pie, PieChart, Tooltip, XAxis, YAxis } from 'recharts';
import type { CarrierShare, EnrollmentsYtd } from '../types';
import { carrierSlices, isYtdEmpty, summarize, ytdPoints } from '../utils/charts';
import { NOTHING_YET } from './texts';

export const YTD_TITLE = 'Enrollments Year to Date';
export const CARRIERS_TITLE = 'Enrolled Medical Carriers YTD';

/**
 * 'Enrollments Year to Date' (line chart, months 'Jan' …). The drawing is hidden from screen
 * readers; a visually hidden table holds the same numbers.
 */
export function EnrollmentsChart({ data }: { data: EnrollmentsYtd }) {
  const headingId = useId();
  const points = ytdPoints(data);
  const empty = isYtdEmpty(points);
  return (
    <figure className="ef-chart" aria-labelledby={headingId}>
      <h3 id={headingId} className="ds-text-heading--lg">
        {YTD_TITLE}
      </h3>
      {empty ? (
        <p>{NOTHING_YET}</p>
      ) : (
        <>
          <div className="ef-chart__plot" aria-hidden="true" data-testid="ytd-chart">
            <LineChart responsive accessibilityLayer={false} style={{ width: '100%', height: 240 }} data={points}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="month" />
              <YAxis allowDecimals={false} width={32} />
              <Tooltip />
              <Line type="monotone" dataKey="count" name="Enrollments" stroke="#0071bc" strokeWidth={2} isAnimationActive={false} />
            </LineChart>
          </div>
          <table className="ds-u-visibility--screen-reader">
            <caption>{`${YTD_TITLE}: ${summarize(points.map((p) => ({ label: p.month, count: p.count })))}`}</caption>
            <thead>
              <tr>
                <th scope="col">Month</th>
                <th scope="col">Enrollments</th>
              </tr>
            </thead>
            <tbody>
              {points.map((p) => (
                <tr key={p.key}>
                  <th scope="row">{p.month}</th>
                  <td>{p.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </figure>
  );
}

/** 'Enrolled Medical Carriers YTD' (pie, carriers' names and colours from the server) with a legend list. */
export function CarriersChart({ data }: { data: CarrierShare }) {
  const headingId = useId();
  const slices = carrierSlices(data);
  return (
    <figure className="ef-chart" aria-labelledby={headingId}>
      <h3 id={headingId} className="ds-text-heading--lg">
        {CARRIERS_TITLE}
      </h3>
      {slices.length === 0 ? (
        <p>{NOTHING_YET}</p>
      ) : (
        <div className="ef-chart__pie">
          <div className="ef-chart__plot" aria-hidden="true" data-testid="carrier-chart">
            <PieChart responsive accessibilityLayer={false} style={{ width: '100%', maxWidth: 260, height: 220 }}>
              <Pie data={slices} dataKey="count" nameKey="name" outerRadius="80%" rootTabIndex={-1} isAnimationActive={false}>
                {slices.map((s) => (
                  <Cell key={s.id} fill={s.color} />
                ))}
              </Pie>
              <Tooltip />
            </PieChart>
          </div>
          <ul className="ef-chart__legend" aria-label={`${CARRIERS_TITLE} by carrier`}>
            {slices.map((s) => (
              <li key={s.id}>
                <span className="ef-chart__swatch" style={{ backgroundColor: s.color }} aria-hidden="true" />
                {s.name}: {s.count}
              </li>
            ))}
          </ul>
        </div>
      )}
    </figure>
  );
}
